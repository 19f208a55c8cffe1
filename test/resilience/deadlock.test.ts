// Two transactions that each hold what the other wants: PostgreSQL gives one of them up (deadlock_detected). When
// that is a request's, the client gets the JSON 503 with Retry-After that it retries (docs/errors.md), nothing of
// the request is written, and the retry goes through once. Forced here: another connection holds the instance's
// row, the PUT (holding its item) waits for it, then that connection asks for the item.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../helpers/harness.js';
import { onPostgres, PgAdmin, waitFor } from './_pg.js';

let h: Harness;
let admin: PgAdmin;
let other: PgAdmin;
let appName: string;

beforeAll(async () => {
  if (!onPostgres) return;
  h = await startHarness();
  admin = await new PgAdmin().open();
  other = await new PgAdmin().open();
  appName = `labstock/${h.database.pgSchema}`;
});
afterAll(async () => {
  await other?.close();
  await admin?.close();
  await h?.close();
});

describe.skipIf(!onPostgres)('a request PostgreSQL gives up in a deadlock (PostgreSQL only: SQLite has one writer)', () => {
  it('answers 503 with Retry-After and changes nothing; the retry changes it once', async () => {
    const schema = h.database.pgSchema!;
    const { itemId, instanceIds } = h.a.migratedLab;
    const instanceId = instanceIds[0]!;
    const url = `/inventory-items/${itemId}/instances/${instanceId}`;
    const history = async () => (await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${itemId}/history` })).json();
    const before = await history();

    await other.query('begin');
    await other.query(`select id from "${schema}".inventory_item_instances where id = $1 for update`, [instanceId]);
    const put = h.call(h.a.admin.token, { method: 'PUT', url, payload: { quantity: '77' } });
    // The PUT holds its item and waits for the instance; then the other connection asks for the item.
    await waitFor('the PUT waiting for the instance', 5_000, async () =>
      (await admin.backends(appName)).some((b) => b.wait_event_type === 'Lock'),
    );
    const crossing = other.query(`select id from "${schema}".inventory_items where id = $1 for update`, [itemId]);
    const res = await put;
    await crossing;
    await other.query('rollback');

    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json()).toMatchObject({ code: 'service_unavailable', message: expect.stringMatching(/nothing was changed/) });
    expect(await history(), 'nothing of the PUT was written').toEqual(before);

    const again = await h.call(h.a.admin.token, { method: 'PUT', url, payload: { quantity: '77' } });
    expect(again.statusCode, again.body).toBe(200);
    const after = await history();
    expect(after.length - before.length).toBe(1);
    expect(after.at(-1)).toMatchObject({ field: 'instance.quantity', new_value: '77' });
  });
});
