import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPostgres } from '../../src/shared/db/database.js';
import { eventMark, eventsSince, expectEventTypes } from '../helpers/events.js';
import { type Harness, startHarness } from '../helpers/harness.js';

// A failing operation leaves no event and no change: refused input (422), a state conflict (409), and a fault
// raised by the database in the middle of the change's transaction. The fault is a real trigger that aborts the
// outbox's inserts (into `events`, or into `webhook_deliveries` after the event row is written), so the change's
// own writes have already happened when it strikes; nothing of ours is mocked.

let h: Harness;
let seq = 0;
const uniq = (prefix: string) => `${prefix} ${++seq}`;
const admin = () => h.a.admin.token;
const shelfId = () => h.a.migratedLab.locationIds[2]!;
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const call = (method: Method, url: string, payload?: unknown): Promise<LightMyRequestResponse> =>
  h.call(admin(), { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });

async function ok(method: Method, url: string, payload?: unknown): Promise<any> {
  const res = await call(method, url, payload);
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.statusCode === 204 ? null : res.json();
}

const TABLES = [
  'labs',
  'types',
  'locations',
  'inventory_items',
  'inventory_item_instances',
  'inventory_item_changes',
  'order_requests',
  'order_request_events',
  'events',
  'webhooks',
  'webhook_deliveries',
] as const;

/** Every row of every table an operation here could touch. */
async function snapshot(): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of TABLES) out[table] = await h.deps.db.selectFrom(table).selectAll().orderBy('id').execute();
  return out;
}

const count = async (table: 'events' | 'webhook_deliveries') =>
  Number(
    (
      await h.deps.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Runs `op` and checks that it failed with `status` and changed nothing at all. */
async function expectNoTrace(op: () => Promise<LightMyRequestResponse>, status: number, code?: string): Promise<any> {
  const before = await snapshot();
  const mark = await eventMark(h);
  const deliveries = await count('webhook_deliveries');
  const res = await op();
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  if (code) expect(body.code).toBe(code);
  expect(await eventsSince(h, mark)).toEqual([]);
  expect(await count('webhook_deliveries')).toBe(deliveries);
  expect(await snapshot()).toEqual(before);
  return body;
}

// Fixtures made through the API before any fault is installed.
const fx: Record<string, any> = {};
beforeAll(async () => {
  h = await startHarness();
  // An organization webhook for every event: a delivery row would be queued for anything that escaped.
  const hook = await call('POST', '/webhooks', { organization_id: h.a.orgId, url: 'https://hooks.example.org/all' });
  expect(hook.statusCode, hook.body).toBe(201);

  const newItem = () =>
    ok('POST', '/inventory-items', {
      lab_id: h.a.migratedLab.id,
      name: uniq('Buffer'),
      type_id: h.a.migratedLab.typeId,
      vendor: 'Acme',
      catalog_number: uniq('CAT'),
      instances: [{ quantity: '2', location_id: shelfId() }],
    });
  const newOrder = (lab: 'migratedLab' | 'legacyLab') =>
    ok('POST', '/order-requests', {
      lab_id: h.a[lab].id,
      type_id: h.a[lab].typeId,
      name: uniq('Thing'),
      vendor_name: uniq('Vendor'),
      catalog_number: uniq('OR'),
      price: { amount: '1250', currency: 'USD' },
      quantity: 2,
    });
  const ordered = async (lab: 'migratedLab' | 'legacyLab') => {
    const o = await newOrder(lab);
    return ok('PUT', `/order-requests/${o.id}`, { status: 'ORDERED' });
  };

  fx.adjustItem = await newItem();
  fx.instanceItem = await newItem();
  fx.deleteItem = await newItem();
  fx.legacyItem = await ok('POST', '/inventory-items', { lab_id: h.a.legacyLab.id, name: uniq('Solvent'), quantity: '3' });
  fx.receiveByStatus = await ordered('legacyLab');
  fx.receiveByPost = await ordered('migratedLab');
  fx.toOrder = await newOrder('migratedLab');
  fx.toDelete = await newOrder('legacyLab');
  fx.received = await ordered('legacyLab');
  await ok('PUT', `/order-requests/${fx.received.id}`, { status: 'RECEIVED' });
  fx.renameType = await ok('POST', '/types', { lab_id: h.a.legacyLab.id, name: uniq('Kit') });
  fx.deleteType = await ok('POST', '/types', { lab_id: h.a.legacyLab.id, name: uniq('Spare') });
  // A location holding two items: renaming it re-announces both in one change.
  fx.location = await ok('POST', '/locations', { lab_id: h.a.migratedLab.id, name: uniq('Fridge') });
  for (let i = 0; i < 2; i++) {
    await ok('POST', '/inventory-items', {
      lab_id: h.a.migratedLab.id,
      name: uniq('Stored'),
      instances: [{ quantity: '1', location_id: fx.location.id }],
    });
  }
});
afterAll(() => h?.close());

describe('a refused request (422) leaves no event and no change', () => {
  const CASES: [string, () => Promise<LightMyRequestResponse>][] = [
    [
      'POST /inventory-items with a negative instance quantity',
      () => call('POST', '/inventory-items', { lab_id: h.a.migratedLab.id, name: 'X', instances: [{ quantity: '-1' }] }),
    ],
    [
      'POST /inventory-items with an unknown field',
      () => call('POST', '/inventory-items', { lab_id: h.a.migratedLab.id, name: 'X', colour: 'red' }),
    ],
    [
      'POST /inventory-items with legacy fields in a lab that uses instances',
      () => call('POST', '/inventory-items', { lab_id: h.a.migratedLab.id, name: 'X', lot_number: 'L' }),
    ],
    ['PUT /order-requests/{id} with an unknown status', () => call('PUT', `/order-requests/${fx.toOrder.id}`, { status: 'SHIPPED' })],
    [
      'POST /order-requests/{id}/receive with a location in a legacy lab (checked inside the transaction)',
      () => call('POST', `/order-requests/${fx.receiveByStatus.id}/receive`, { location_id: shelfId() }),
    ],
    ['POST /types with an empty name', () => call('POST', '/types', { lab_id: h.a.legacyLab.id, name: '' })],
    ['PATCH /locations/{id} with an empty name', () => call('PATCH', `/locations/${fx.location.id}`, { name: '' })],
    [
      'POST /inventory-items/{id}/adjustments with a malformed delta',
      () => call('POST', `/inventory-items/${fx.adjustItem.id}/adjustments`, { delta: '1,5', instance_id: fx.adjustItem.instances[0].id }),
    ],
  ];
  for (const [name, op] of CASES) it(name, () => expectNoTrace(op, 422, 'validation_failed'));
});

describe('a conflict (409) leaves no event and no change', () => {
  const CASES: [string, () => Promise<LightMyRequestResponse>][] = [
    ['DELETE /types/{id} of a type items use', () => call('DELETE', `/types/${h.a.legacyLab.typeId}`)],
    [
      'POST /types with a name the lab already has',
      () => call('POST', '/types', { lab_id: h.a.legacyLab.id, name: fx.renameType.name.toUpperCase() }),
    ],
    [
      'PUT /order-requests/{id} CREATED → RECEIVED (invalid transition)',
      () => call('PUT', `/order-requests/${fx.toOrder.id}`, { status: 'RECEIVED' }),
    ],
    [
      'PUT /order-requests/{id} RECEIVED → CANCELLED (RECEIVED is final)',
      () => call('PUT', `/order-requests/${fx.received.id}`, { status: 'CANCELLED' }),
    ],
    ['POST /order-requests/{id}/receive of a request not yet ordered', () => call('POST', `/order-requests/${fx.toOrder.id}/receive`, {})],
    ['DELETE /order-requests/{id} of a received request', () => call('DELETE', `/order-requests/${fx.received.id}`)],
    [
      'POST /inventory-items/{id}/adjustments below zero',
      () =>
        call('POST', `/inventory-items/${fx.adjustItem.id}/adjustments`, { delta: '-1000', instance_id: fx.adjustItem.instances[0].id }),
    ],
  ];
  for (const [name, op] of CASES) it(name, () => expectNoTrace(op, 409));
});

/** Operations that write events, each on its own fixture so it can fail and then succeed. */
const WRITES: { name: string; op: () => Promise<LightMyRequestResponse>; status: number; emits: string[] }[] = [
  {
    name: 'create an item (POST /inventory-items)',
    status: 201,
    emits: ['inventory-item.created'],
    op: () =>
      call('POST', '/inventory-items', {
        lab_id: h.a.migratedLab.id,
        name: 'Fault-free item',
        instances: [{ quantity: '1', location_id: shelfId() }],
      }),
  },
  {
    name: 'adjust a quantity (POST /inventory-items/{id}/adjustments)',
    status: 200,
    emits: ['inventory-item.updated'],
    op: () =>
      call('POST', `/inventory-items/${fx.adjustItem.id}/adjustments`, { delta: '-0.5', instance_id: fx.adjustItem.instances[0].id }),
  },
  {
    name: 'set an instance quantity (PUT /inventory-items/{id}/instances/{instanceId})',
    status: 200,
    emits: ['inventory-item.updated'],
    op: () => call('PUT', `/inventory-items/${fx.instanceItem.id}/instances/${fx.instanceItem.instances[0].id}`, { quantity: '5' }),
  },
  {
    name: 'set an item quantity in a legacy lab (PUT /inventory-items/{id})',
    status: 200,
    emits: ['inventory-item.updated'],
    op: () => call('PUT', `/inventory-items/${fx.legacyItem.id}`, { quantity: '8' }),
  },
  {
    name: 'delete an item',
    status: 204,
    emits: ['inventory-item.deleted'],
    op: () => call('DELETE', `/inventory-items/${fx.deleteItem.id}`),
  },
  {
    name: 'receive an order by status (PUT RECEIVED: status, history and new inventory)',
    status: 200,
    emits: ['order-request.received', 'inventory-item.created'],
    op: () => call('PUT', `/order-requests/${fx.receiveByStatus.id}`, { status: 'RECEIVED' }),
  },
  {
    name: 'receive an order into a location (POST /order-requests/{id}/receive)',
    status: 200,
    emits: ['order-request.received', 'inventory-item.created'],
    op: () => call('POST', `/order-requests/${fx.receiveByPost.id}/receive`, { lot_number: 'F-1', location_id: shelfId() }),
  },
  {
    name: 'order a request (PUT ORDERED)',
    status: 200,
    emits: ['order-request.ordered'],
    op: () => call('PUT', `/order-requests/${fx.toOrder.id}`, { status: 'ORDERED' }),
  },
  {
    name: 'delete an order request',
    status: 204,
    emits: ['order-request.deleted'],
    op: () => call('DELETE', `/order-requests/${fx.toDelete.id}`),
  },
  {
    name: 'create an order request',
    status: 201,
    emits: ['order-request.created'],
    op: () =>
      call('POST', '/order-requests', {
        lab_id: h.a.legacyLab.id,
        type_id: h.a.legacyLab.typeId,
        name: 'Fault-free order',
        vendor_name: 'V',
        catalog_number: 'C',
        price: { amount: '100', currency: 'USD' },
        quantity: 1,
      }),
  },
  {
    name: 'create a type',
    status: 201,
    emits: ['type.created'],
    op: () => call('POST', '/types', { lab_id: h.a.legacyLab.id, name: 'Fault-free type' }),
  },
  {
    name: 'rename a type',
    status: 200,
    emits: ['type.updated'],
    op: () => call('PUT', `/types/${fx.renameType.id}`, { name: `${fx.renameType.name} v2` }),
  },
  { name: 'delete a type', status: 204, emits: ['type.deleted'], op: () => call('DELETE', `/types/${fx.deleteType.id}`) },
  {
    name: 'rename a location (re-announces the two items stored there)',
    status: 200,
    emits: ['inventory-item.updated', 'inventory-item.updated'],
    op: () => call('PATCH', `/locations/${fx.location.id}`, { name: `${fx.location.name} (renamed)` }),
  },
];

type Target = 'events' | 'webhook_deliveries';

async function installFault(target: Target): Promise<void> {
  const db = h.deps.db;
  if (isPostgres(db)) {
    const schema = h.database.pgSchema!;
    await sql`CREATE OR REPLACE FUNCTION ${sql.id(schema, 'injected_fault')}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected fault'; END $$`.execute(
      db,
    );
    await sql`CREATE TRIGGER injected_fault BEFORE INSERT ON ${sql.id(schema, target)} FOR EACH ROW EXECUTE FUNCTION ${sql.id(schema, 'injected_fault')}()`.execute(
      db,
    );
  } else {
    await sql`CREATE TRIGGER injected_fault BEFORE INSERT ON ${sql.id(target)} BEGIN SELECT RAISE(ABORT, 'injected fault'); END`.execute(
      db,
    );
  }
}

async function removeFault(target: Target): Promise<void> {
  const db = h.deps.db;
  if (isPostgres(db)) await sql`DROP TRIGGER injected_fault ON ${sql.id(h.database.pgSchema!, target)}`.execute(db);
  else await sql`DROP TRIGGER injected_fault`.execute(db);
}

/** The answer to a fault: 500 with the standard body and nothing about what went wrong inside. */
function expectOpaque500(res: LightMyRequestResponse, body: any): void {
  expect(Object.keys(body).sort()).toEqual(['code', 'message', 'request_id']);
  expect(body.code).toBe('internal_error');
  expect(body.request_id).toBe(res.headers['x-request-id']);
  expect(res.body).not.toMatch(/injected|fault|trigger|sql|insert|events|deliver|stack|\bat .*:\d+/i);
}

for (const target of ['events', 'webhook_deliveries'] as const) {
  describe(`a fault inside the transaction (a trigger aborting inserts into ${target}) leaves no event and no change`, () => {
    beforeAll(() => installFault(target));
    afterAll(() => removeFault(target));

    it('the trigger really aborts that insert', async () => {
      const insert =
        target === 'events'
          ? h.deps.db.insertInto('events').values({
              id: '0190a6f2-1111-7222-8333-444455556666',
              type: 'x',
              organization_id: h.a.orgId,
              lab_id: null,
              payload: '{}',
              created_at: new Date().toISOString(),
            })
          : h.deps.db.insertInto('webhook_deliveries').values({
              id: '0190a6f2-1111-7222-8333-444455556667',
              webhook_id: '0190a6f2-1111-7222-8333-444455556668',
              event_id: '0190a6f2-1111-7222-8333-444455556669',
              status: 'pending',
              attempts: 0,
              next_attempt_at: new Date().toISOString(),
              lease_until: null,
              leased_by: null,
              created_at: new Date().toISOString(),
              completed_at: null,
            });
      await expect(insert.execute()).rejects.toThrow(/injected fault/);
    });

    for (const w of WRITES) {
      it(`${w.name}: 500, nothing changed`, async () => {
        let res!: LightMyRequestResponse;
        const body = await expectNoTrace(async () => (res = await w.op()), 500);
        expectOpaque500(res, body);
      });
    }
  });
}

describe('without the fault, the same operations succeed and write their events and deliveries', () => {
  for (const w of WRITES) {
    it(w.name, async () => {
      const mark = await eventMark(h);
      const deliveries = await count('webhook_deliveries');
      const res = await w.op();
      expect(res.statusCode, res.body).toBe(w.status);
      await expectEventTypes(h, mark, w.emits);
      // The organization webhook takes every event: one delivery each.
      expect(await count('webhook_deliveries')).toBe(deliveries + w.emits.length);
    });
  }
});
