// A fault in the middle of a change to a controlled item leaves nothing behind (docs/controlled-substances.md): the
// ledger entry is written in the change's transaction, so a failure after it (the event) takes it back, and a failure
// writing it takes the change back. Faults are injected with a database trigger, on SQLite and PostgreSQL.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Harness } from '../../helpers/harness.js';
import { useHarness } from '../../helpers/use-harness.js';
import { ledgerOf, ledgerRows, makeControlled } from './_controlled.js';

const h = useHarness();

/** A trigger refusing inserts into `table` whose row matches `condition`. */
async function failInsertsWhen(h: Harness, name: string, table: string, condition: string): Promise<void> {
  if (h.database.handle.kind === 'sqlite') {
    await sql
      .raw(`CREATE TRIGGER ${name} BEFORE INSERT ON ${table} WHEN ${condition} BEGIN SELECT RAISE(ABORT, 'injected failure'); END`)
      .execute(h.deps.db);
    return;
  }
  await sql
    .raw(`CREATE FUNCTION ${name}_fn() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF ${condition} THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$`)
    .execute(h.deps.db);
  await sql.raw(`CREATE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}_fn()`).execute(h.deps.db);
}

async function quantityOf(itemId: string, instanceId: string): Promise<string> {
  const res = await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${itemId}` });
  return res.json().instances.find((i: any) => i.id === instanceId).quantity;
}

const history = async (itemId: string) =>
  (await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${itemId}/history` })).json().length;

describe('a fault mid-transaction', () => {
  it('after the ledger entry (the event fails): the use, its history and its entry are all gone', async () => {
    const c = await makeControlled(h);
    const [rows, lines] = [await ledgerRows(h), await history(c.itemId)];
    await failInsertsWhen(h, 'fail_event', 'events', `NEW.payload LIKE '%${c.itemId}%'`);
    const res = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/inventory-items/${c.itemId}/instances/${c.instanceIds[0]}`,
      payload: { quantity: '1' },
    });
    expect(res.statusCode, res.body).toBe(500);
    expect(await ledgerRows(h)).toBe(rows);
    expect(await quantityOf(c.itemId, c.instanceIds[0])).toBe('5');
    expect(await history(c.itemId)).toBe(lines);
  });

  it('writing the entry (the ledger fails): the adjustment is not made', async () => {
    const c = await makeControlled(h);
    const [rows, lines] = [await ledgerRows(h), await history(c.itemId)];
    await failInsertsWhen(h, 'fail_ledger', 'controlled_ledger', `NEW.item_id = '${c.itemId}'`);
    const res = await h.call(h.a.admin.token, {
      method: 'POST',
      url: `/inventory-items/${c.itemId}/adjustments`,
      payload: { delta: '-1', note: 'x', instance_id: c.instanceIds[0] },
    });
    expect(res.statusCode, res.body).toBe(500);
    expect(await ledgerRows(h)).toBe(rows);
    expect(await quantityOf(c.itemId, c.instanceIds[0])).toBe('5');
    expect(await history(c.itemId)).toBe(lines);
    expect(await ledgerOf(h, h.a.admin.token, c.itemId)).toHaveLength(1);
  });
});
