import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitEvents } from '../../src/events/outbox.js';
import type { DbHandle } from '../../src/shared/db/database.js';
import { openCountedHandle } from '../helpers/db-counter.js';
import { type Harness, startHarness } from '../helpers/harness.js';

// The outbox writes events and their deliveries with a fixed number of statements, however many events a change
// causes (a location rename, a lab migration): no query per event.
let h: Harness;
let counted: DbHandle;
let statements: string[] = [];
beforeAll(async () => {
  h = await startHarness();
  // A second handle on the same data that reports every statement.
  counted = openCountedHandle(h, (sql) => statements.push(sql));
  for (const [labId, types] of [
    [h.a.migratedLab.id, []],
    [null, ['inventory-item.updated']],
    [null, ['type.*']],
  ] as const) {
    const r = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/webhooks',
      payload: { ...(labId ? { lab_id: labId } : { organization_id: h.a.orgId }), url: 'https://hooks.example.org/x', event_types: types },
    });
    expect(r.statusCode, r.body).toBe(201);
  }
});
afterAll(async () => {
  await counted?.close();
  await h?.close();
});

async function emit(n: number, labId: string): Promise<{ statements: number; deliveries: number }> {
  statements = [];
  const before = Number(
    (
      await h.deps.db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  await counted.db.transaction().execute((trx) =>
    emitEvents(
      trx,
      h.config,
      Array.from({ length: n }, (_, i) => ({
        type: 'inventory-item.updated' as const,
        organizationId: h.a.orgId,
        labId,
        resource: { i },
      })),
    ),
  );
  const after = Number(
    (
      await h.deps.db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  return { statements: statements.length, deliveries: after - before };
}

describe('emitEvents', () => {
  it('runs the same statements for 1 event as for 200 (inserts are chunked by 500 rows), and fans out to exactly the matching webhooks', async () => {
    const one = await emit(1, h.a.migratedLab.id);
    const many = await emit(200, h.a.migratedLab.id);
    // The lab webhook (all types) and the org webhook for inventory-item.updated match; the type.* one does not.
    expect(one.deliveries).toBe(2);
    expect(many.deliveries).toBe(400);
    expect(many.statements).toBe(one.statements);
  });

  it("gives another lab's events only to the organization webhook that wants them", async () => {
    const other = await emit(5, h.a.legacyLab.id);
    expect(other.deliveries).toBe(5);
  });
});
