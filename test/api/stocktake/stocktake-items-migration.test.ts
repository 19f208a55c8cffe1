// Migration 0035 (src/shared/db/migrations/0035_stocktake_items.ts): stocktake_sessions.location_id becomes nullable
// (SQLite rebuilds both stocktake tables). Run again over sessions and counts of both kinds, it keeps every row as it
// was, and the tables keep their rules: one count per (session, container), counts only of existing sessions, and a
// session may cover a lab (location_id null).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up } from '../../../src/shared/db/migrations/0035_stocktake_items.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { count, countItem, makeLegacyLab, makeShelf, started, startLab } from './_stocktake.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

describe('0035_stocktake_items', () => {
  it('keeps every session and count through the rebuild, and the tables their keys', async () => {
    const db = h.deps.db;
    const shelf = await makeShelf(h);
    const byLocation = await started(h, h.a.member.token, shelf.rootId);
    expect((await count(h, h.a.member.token, byLocation.id, shelf.instanceIds[0], { quantity: '4' })).statusCode).toBe(200);
    const lab = await makeLegacyLab(h);
    const byLab = (await startLab(h, h.a.member.token, lab.labId)).json();
    expect((await countItem(h, h.a.member.token, byLab.id, lab.itemIds[0], { quantity: '1' })).statusCode).toBe(200);
    const sessions = await db.selectFrom('stocktake_sessions').selectAll().orderBy('id').execute();
    const counts = await db.selectFrom('stocktake_counts').selectAll().orderBy('session_id').orderBy('instance_id').execute();
    expect(sessions.find((s) => s.id === byLab.id)?.location_id).toBeNull();

    await up(db);

    expect(await db.selectFrom('stocktake_sessions').selectAll().orderBy('id').execute()).toEqual(sessions);
    expect(await db.selectFrom('stocktake_counts').selectAll().orderBy('session_id').orderBy('instance_id').execute()).toEqual(counts);
    // One count per (session, container), and only of a session that exists.
    await expect(db.insertInto('stocktake_counts').values(counts[0]!).execute()).rejects.toThrow();
    await expect(
      db
        .insertInto('stocktake_counts')
        .values({ ...counts[0]!, session_id: '0190f5d2-8c1e-7a55-9b1e-3f0c2a7d4e11' })
        .execute(),
    ).rejects.toThrow();
    // The counts go on through the API after it.
    expect((await countItem(h, h.a.member.token, byLab.id, lab.itemIds[1])).statusCode).toBe(200);
  });
});
