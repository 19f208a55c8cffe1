// Migration 0031 (src/shared/db/migrations/0031_label_codes.ts) on a database that holds inventory from before it:
// every container, every location and every item of a legacy lab gets one code, all different, of the code's shape;
// a migrated lab's items get none (their containers carry them).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up } from '../../../src/shared/db/migrations/0031_label_codes.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { CODE_SHAPE } from './_labels.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

describe('0031_label_codes', () => {
  it('backfills a code for each instance, location and legacy item that exists', async () => {
    const db = h.deps.db;
    await sql`drop table label_codes`.execute(db);
    await up(db);
    const rows = await db.selectFrom('label_codes').selectAll().execute();
    const instances = await db.selectFrom('inventory_item_instances').select('id').execute();
    const locations = await db.selectFrom('locations').select('id').execute();
    const legacyItems = await db
      .selectFrom('inventory_items')
      .innerJoin('labs', 'labs.id', 'inventory_items.lab_id')
      .select('inventory_items.id')
      .where('labs.uses_instances', '=', 0)
      .execute();
    const targets = (kind: string) =>
      rows
        .filter((r) => r.kind === kind)
        .map((r) => r.target_id)
        .sort();
    expect(targets('instance')).toEqual(instances.map((r) => r.id).sort());
    expect(targets('location')).toEqual(locations.map((r) => r.id).sort());
    expect(targets('item')).toEqual(legacyItems.map((r) => r.id).sort());
    expect(legacyItems.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.code).toMatch(CODE_SHAPE);
    expect(new Set(rows.map((r) => r.code)).size).toBe(rows.length);
    // Each in its own organization and lab.
    const a = rows.find((r) => r.target_id === h.a.migratedLab.instanceIds[0]);
    expect(a).toMatchObject({ organization_id: h.a.orgId, lab_id: h.a.migratedLab.id, retired_at: null });
    // The table's rules hold after it: a code is unique, and so is a target of a kind.
    await expect(
      db
        .insertInto('label_codes')
        .values({ ...rows[0]!, target_id: 'another' })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db
        .insertInto('label_codes')
        .values({ ...rows[0]!, code: '2222222222' })
        .execute(),
    ).rejects.toThrow();
  });
});
