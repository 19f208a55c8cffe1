// Instances of a migrated lab's item (PRODUCT §5): POST /inventory-items/{id}/instances (add; legacy lab 409),
// PATCH /inventory-items/{itemId}/instances/{itemInstanceId} (edit), POST …/archive (leaves instances[] and the sum).
// Every change: the full item back, a new ETag, history, and one inventory-item.updated (§7).

import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLab } from '../../../src/labs/service.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import {
  addItem,
  dbState,
  eventsAfter,
  expectError,
  expectItemShape,
  expectValidation,
  getItemJson,
  memberSummary,
  revokedToken,
  UNKNOWN_ID,
} from './_helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const addUrl = (itemId: string) => `/inventory-items/${itemId}/instances`;
const instUrl = (itemId: string, instanceId: string) => `/inventory-items/${itemId}/instances/${instanceId}`;
const add = (token: string | null, itemId: string, payload: unknown, headers: Record<string, string> = {}) =>
  h.call(token, { method: 'POST', url: addUrl(itemId), payload: payload as any, headers });
const edit = (token: string | null, itemId: string, instanceId: string, payload: unknown, headers: Record<string, string> = {}) =>
  h.call(token, { method: 'PATCH', url: instUrl(itemId, instanceId), payload: payload as any, headers });
const archive = (token: string | null, itemId: string, instanceId: string, headers: Record<string, string> = {}) =>
  h.call(token, { method: 'POST', url: `${instUrl(itemId, instanceId)}/archive`, headers });

async function unchanged(token: string | null, opts: InjectOptions) {
  const before = await dbState(h);
  const res = await h.call(token, opts);
  expect(await dbState(h)).toEqual(before);
  return res;
}

const changesOf = (itemId: string) =>
  h.deps.db.selectFrom('inventory_item_changes').selectAll().where('item_id', '=', itemId).orderBy('created_at').orderBy('id').execute();

/** A migrated item with instances "1.25" (at Shelf 2, lot A) and "0.75". */
async function migratedItem(name = 'Vials') {
  const item = await addItem(h, h.a.admin.id, { labId: h.a.migratedLab.id, name }, [
    { quantity: '1.25', lotNumber: 'A', expirationDate: '2027-03-01', locationId: h.a.migratedLab.locationIds[2] },
    { quantity: '0.75' },
  ]);
  return { id: item.id, instanceIds: item.instances.map((i) => i.id) };
}

/** Runs a change and checks: status, full item = GET, new ETag = GET's, exactly one inventory-item.updated = body. */
async function expectChange(send: () => Promise<any>, itemId: string, status: number): Promise<any> {
  const before = await getItemJson(h, h.a.admin.token, itemId);
  const eventsBefore = (await dbState(h)).events;
  const res = await send();
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expectItemShape(body);
  expect(body.id).toBe(itemId);
  const after = await getItemJson(h, h.a.admin.token, itemId);
  expect(after.body).toEqual(body);
  expect(res.headers.etag).toBe(after.etag);
  expect(after.etag).not.toBe(before.etag);
  const events = await eventsAfter(h, eventsBefore);
  expect(events.map((e) => e.type)).toEqual(['com.labstock.inventory-item.updated']);
  expect(events[0]!.event.data).toEqual({ inventory_item: body });
  expect(events[0]!.lab_id).toBe(h.a.migratedLab.id);
  return body;
}

describe('happy', () => {
  it('add: 201 with the full item; the new instance is last, with its location path; quantity is the exact sum', async () => {
    const item = await migratedItem();
    const body = await expectChange(
      () =>
        add(h.a.member.token, item.id, {
          quantity: '0.1',
          lot_number: 'B',
          expiration_date: '2028-01-31',
          location_id: h.a.migratedLab.locationIds[1],
        }),
      item.id,
      201,
    );
    expect(body.quantity).toBe('2.1');
    expect(body.instances.map((i: any) => i.id).slice(0, 2)).toEqual(item.instanceIds);
    const added = body.instances[2];
    expect(added).toEqual({
      id: added.id,
      quantity: '0.1',
      lot_number: 'B',
      expiration_date: '2028-01-31',
      location: { name: 'Freezer A', pathNames: ['Room 101', 'Freezer A'] },
    });
    expect(item.instanceIds).not.toContain(added.id);
    expect(body.updated_by).toEqual(memberSummary(h.a, 'A'));
    const rows = await changesOf(item.id);
    expect(rows.map((r) => [r.field, r.instance_id, r.old_value, r.new_value, r.user_id])).toEqual([
      ['instance.added', added.id, null, '0.1', h.a.member.id],
    ]);
  });

  it('add: only quantity is required; If-Match with the current ETag is honoured', async () => {
    const item = await migratedItem();
    const { etag } = await getItemJson(h, h.a.admin.token, item.id);
    const body = await expectChange(() => add(h.a.admin.token, item.id, { quantity: '3' }, { 'if-match': etag! }), item.id, 201);
    expect(body.instances[2]).toMatchObject({ quantity: '3', lot_number: null, expiration_date: null, location: null });
    expect(body.quantity).toBe('5');
  });

  it('edit: quantity, lot, expiry and location change; one history row per field; the sum follows', async () => {
    const item = await migratedItem();
    const [first, second] = item.instanceIds as [string, string];
    const body = await expectChange(
      () =>
        edit(h.a.admin.token, item.id, second, {
          quantity: '0.05',
          lot_number: 'Z',
          expiration_date: '2029-09-09',
          location_id: h.a.migratedLab.locationIds[0],
        }),
      item.id,
      200,
    );
    expect(body.quantity).toBe('1.3');
    expect(body.instances).toEqual([
      {
        id: first,
        quantity: '1.25',
        lot_number: 'A',
        expiration_date: '2027-03-01',
        location: { name: 'Shelf 2', pathNames: ['Room 101', 'Freezer A', 'Shelf 2'] },
      },
      {
        id: second,
        quantity: '0.05',
        lot_number: 'Z',
        expiration_date: '2029-09-09',
        location: { name: 'Room 101', pathNames: ['Room 101'] },
      },
    ]);
    const rows = await changesOf(item.id);
    expect(rows.map((r) => [r.field, r.instance_id, r.old_value, r.new_value]).sort()).toEqual([
      ['instance.expiration_date', second, null, '2029-09-09'],
      ['instance.location_id', second, null, h.a.migratedLab.locationIds[0]],
      ['instance.lot_number', second, null, 'Z'],
      ['instance.quantity', second, '0.75', '0.05'],
    ]);
  });

  it('edit: null clears lot, expiry and location', async () => {
    const item = await migratedItem();
    const body = await expectChange(
      () => edit(h.a.admin.token, item.id, item.instanceIds[0]!, { lot_number: null, expiration_date: null, location_id: null }),
      item.id,
      200,
    );
    expect(body.instances[0]).toEqual({
      id: item.instanceIds[0],
      quantity: '1.25',
      lot_number: null,
      expiration_date: null,
      location: null,
    });
  });

  it('edit without a change (empty body or same values): 200, same ETag, no history, no event', async () => {
    const item = await migratedItem();
    const before = await getItemJson(h, h.a.admin.token, item.id);
    for (const payload of [{}, { quantity: '1.25', lot_number: 'A', location_id: h.a.migratedLab.locationIds[2] }]) {
      const res = await unchanged(h.a.admin.token, { method: 'PATCH', url: instUrl(item.id, item.instanceIds[0]!), payload });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual(before.body);
      expect(res.headers.etag).toBe(before.etag);
    }
  });

  it('archive: the instance leaves instances[] and the sum; its row stays with archived_at; history records it', async () => {
    const item = await migratedItem();
    const [first, second] = item.instanceIds as [string, string];
    const body = await expectChange(() => archive(h.a.member.token, item.id, first), item.id, 200);
    expect(body.quantity).toBe('0.75');
    expect(body.instances.map((i: any) => i.id)).toEqual([second]);
    const row = await h.deps.db.selectFrom('inventory_item_instances').selectAll().where('id', '=', first).executeTakeFirstOrThrow();
    expect(row.archived_at).not.toBeNull();
    expect(row.quantity).toBe('1.25');
    const rows = await changesOf(item.id);
    expect(rows.map((r) => [r.field, r.instance_id, r.old_value, r.new_value])).toEqual([['instance.archived', first, '1.25', null]]);
    // The list and the last remaining instance.
    const list = await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items?lab_id=${h.a.migratedLab.id}&per_page=100` });
    expect(list.json().find((i: any) => i.id === item.id)).toEqual(body);
    const last = await expectChange(() => archive(h.a.admin.token, item.id, second), item.id, 200);
    expect(last).toMatchObject({ quantity: '0', instances: [] });
  });

  it('archive honours If-Match with the current ETag', async () => {
    const item = await migratedItem();
    const { etag } = await getItemJson(h, h.a.admin.token, item.id);
    await expectChange(() => archive(h.a.admin.token, item.id, item.instanceIds[1]!, { 'if-match': etag! }), item.id, 200);
  });
});

describe('errors', () => {
  it('add to a legacy lab item: 409 conflict; nothing written', async () => {
    const res = await unchanged(h.a.admin.token, { method: 'POST', url: addUrl(h.a.legacyLab.itemId), payload: { quantity: '1' } });
    expectError(res, 409, 'conflict');
  });

  it('a second archive is 404; the archived instance can be neither edited nor archived', async () => {
    const item = await migratedItem();
    const archived = item.instanceIds[0]!;
    expect((await archive(h.a.admin.token, item.id, archived)).statusCode).toBe(200);
    expectError(await unchanged(h.a.admin.token, { method: 'POST', url: `${instUrl(item.id, archived)}/archive` }), 404, 'not_found');
    expectError(
      await unchanged(h.a.admin.token, { method: 'PATCH', url: instUrl(item.id, archived), payload: { quantity: '9' } }),
      404,
      'not_found',
    );
  });

  it('404 for an unknown instance, an instance of another item, and an instance id on a legacy item', async () => {
    const item = await migratedItem();
    const other = await migratedItem('Other vials');
    for (const [itemId, instanceId] of [
      [item.id, UNKNOWN_ID],
      [item.id, other.instanceIds[0]!],
      [h.a.legacyLab.itemId, item.instanceIds[0]!],
    ] as const) {
      expectError(
        await unchanged(h.a.admin.token, { method: 'PATCH', url: instUrl(itemId, instanceId), payload: { quantity: '1' } }),
        404,
        'not_found',
      );
      expectError(await unchanged(h.a.admin.token, { method: 'POST', url: `${instUrl(itemId, instanceId)}/archive` }), 404, 'not_found');
    }
    expectError(
      await unchanged(h.a.admin.token, { method: 'POST', url: addUrl(UNKNOWN_ID), payload: { quantity: '1' } }),
      404,
      'not_found',
    );
  });

  it('404 for a location of another lab or an unknown location (add and edit)', async () => {
    const item = await migratedItem();
    for (const location_id of [h.b.migratedLab.locationIds[0]!, UNKNOWN_ID]) {
      expectError(
        await unchanged(h.a.admin.token, { method: 'POST', url: addUrl(item.id), payload: { quantity: '1', location_id } }),
        404,
        'not_found',
      );
      expectError(
        await unchanged(h.a.admin.token, { method: 'PATCH', url: instUrl(item.id, item.instanceIds[1]!), payload: { location_id } }),
        404,
        'not_found',
      );
    }
  });

  it('412 precondition_failed for a stale If-Match (add, edit, archive); nothing changes', async () => {
    const item = await migratedItem();
    const { etag } = await getItemJson(h, h.a.admin.token, item.id);
    expect((await edit(h.a.admin.token, item.id, item.instanceIds[0]!, { lot_number: 'moved on' })).statusCode).toBe(200);
    const headers = { 'if-match': etag! };
    expectError(
      await unchanged(h.a.admin.token, { method: 'POST', url: addUrl(item.id), payload: { quantity: '1' }, headers }),
      412,
      'precondition_failed',
    );
    expectError(
      await unchanged(h.a.admin.token, {
        method: 'PATCH',
        url: instUrl(item.id, item.instanceIds[1]!),
        payload: { quantity: '5' },
        headers,
      }),
      412,
      'precondition_failed',
    );
    expectError(
      await unchanged(h.a.admin.token, { method: 'POST', url: `${instUrl(item.id, item.instanceIds[1]!)}/archive`, headers }),
      412,
      'precondition_failed',
    );
  });

  it('422 naming the field for invalid or missing values and unknown fields', async () => {
    const item = await migratedItem();
    const a = (payload: unknown) => unchanged(h.a.admin.token, { method: 'POST', url: addUrl(item.id), payload: payload as any });
    const e = (payload: unknown) =>
      unchanged(h.a.admin.token, { method: 'PATCH', url: instUrl(item.id, item.instanceIds[0]!), payload: payload as any });
    expectValidation(await a({}), 'quantity');
    for (const quantity of ['-1', 'abc', 1, null]) {
      expectValidation(await a({ quantity }), 'quantity');
      expectValidation(await e({ quantity }), 'quantity');
    }
    expectValidation(await a({ quantity: '1', expiration_date: '2027-02-30' }), 'expiration_date');
    expectValidation(await e({ location_id: 'shelf' }), 'location_id');
    expectValidation(await a({ quantity: '1', id: UNKNOWN_ID }), 'id');
    expectValidation(await a({ quantity: '1', location: { name: 'Shelf' } }), 'location');
    expectValidation(await e({ archived: true }), 'archived');
    expectValidation(await unchanged(h.a.admin.token, { method: 'PATCH', url: instUrl(item.id, 'abc'), payload: {} }), 'itemInstanceId');
    expectValidation(
      await unchanged(h.a.admin.token, { method: 'POST', url: `${instUrl('abc', item.instanceIds[0]!)}/archive` }),
      'itemId',
    );
  });
});

describe('security', () => {
  it('401 without a token, with an unknown token and with a revoked token (add, edit, archive); nothing changes', async () => {
    const item = await migratedItem();
    const revoked = await revokedToken(h, h.a);
    for (const token of [null, 'lst_unknown', revoked]) {
      expectError(await unchanged(token, { method: 'POST', url: addUrl(item.id), payload: { quantity: '1' } }), 401, 'unauthorized');
      expectError(
        await unchanged(token, { method: 'PATCH', url: instUrl(item.id, item.instanceIds[0]!), payload: { quantity: '1' } }),
        401,
        'unauthorized',
      );
      expectError(
        await unchanged(token, { method: 'POST', url: `${instUrl(item.id, item.instanceIds[0]!)}/archive` }),
        401,
        'unauthorized',
      );
    }
  });

  it('org A tokens get 404 for org B items and instances (add, edit, archive); B stays as it was', async () => {
    const b = h.b.migratedLab;
    const bBefore = await getItemJson(h, h.b.admin.token, b.itemId);
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      expectError(await unchanged(token, { method: 'POST', url: addUrl(b.itemId), payload: { quantity: '1' } }), 404, 'not_found');
      expectError(
        await unchanged(token, { method: 'PATCH', url: instUrl(b.itemId, b.instanceIds[0]!), payload: { quantity: '1' } }),
        404,
        'not_found',
      );
      expectError(await unchanged(token, { method: 'POST', url: `${instUrl(b.itemId, b.instanceIds[0]!)}/archive` }), 404, 'not_found');
      // An org B instance addressed through an org A item is not found either.
      expectError(
        await unchanged(token, { method: 'POST', url: `${instUrl(h.a.migratedLab.itemId, b.instanceIds[0]!)}/archive` }),
        404,
        'not_found',
      );
    }
    const bAfter = await getItemJson(h, h.b.admin.token, b.itemId);
    expect([bAfter.body, bAfter.etag]).toEqual([bBefore.body, bBefore.etag]);
  });

  it('the member gets 404 for an item of a lab they do not belong to (add, edit, archive); the outsider for every item', async () => {
    // A migrated lab of org A that the member is not in.
    const lab = await createLab(h.deps.db, { organizationId: h.a.orgId, name: 'Hidden migrated lab', usesInstances: true });
    const hidden = await addItem(h, h.a.admin.id, { labId: lab.id, name: 'Hidden' }, [{ quantity: '1' }]);
    const hiddenInstance = hidden.instances[0]!.id;
    const legacyHidden = await addItem(h, h.a.admin.id, { labId: h.a.otherLab.id, name: 'Hidden legacy' });
    const item = await migratedItem();
    for (const [token, itemId, instanceId] of [
      [h.a.member.token, hidden.id, hiddenInstance],
      [h.a.member.token, legacyHidden.id, UNKNOWN_ID],
      [h.a.outsider.token, item.id, item.instanceIds[0]!],
      [h.a.outsider.token, hidden.id, hiddenInstance],
    ] as const) {
      expectError(await unchanged(token, { method: 'POST', url: addUrl(itemId), payload: { quantity: '1' } }), 404, 'not_found');
      expectError(
        await unchanged(token, { method: 'PATCH', url: instUrl(itemId, instanceId), payload: { quantity: '1' } }),
        404,
        'not_found',
      );
      expectError(await unchanged(token, { method: 'POST', url: `${instUrl(itemId, instanceId)}/archive` }), 404, 'not_found');
    }
    // The admin can: the 404s above are about visibility, not about the ids.
    expect((await archive(h.a.admin.token, hidden.id, hiddenInstance)).statusCode).toBe(200);
  });
});
