// POST /labs/{id}/migrate-to-instances and GET /labs/{id}/migration (errors): the standard refusals, each changing
// nothing; and what a migration in progress refuses elsewhere (receiving goods into the lab).

import { describe, expect, it } from 'vitest';
import { createItem } from '../../../src/inventory/items.js';
import { startMigration } from '../../../src/lab-migration/service.js';
import { createLab } from '../../../src/labs/service.js';
import { systemActor } from '../../../src/shared/actor.js';
import { createType } from '../../../src/types/service.js';
import { dbState, revokedToken } from '../../helpers/data.js';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { waitForMigration } from '../../helpers/lab-migration.js';
import { UNKNOWN_ID } from '../../helpers/shapes.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const post = (token: string | null, id: string, payload?: unknown, headers: Record<string, string> = {}) =>
  h.call(token, {
    method: 'POST',
    url: `/labs/${id}/migrate-to-instances`,
    ...(payload === undefined ? {} : { payload: payload as string }),
    headers,
  });
const get = (token: string | null, id: string) => h.call(token, { method: 'GET', url: `/labs/${id}/migration` });

describe('migrate-to-instances (errors)', () => {
  it('401 without a token, with an unknown token and with a revoked token; nothing changes', async () => {
    const revoked = await revokedToken(h, h.a);
    const afterToken = await dbState(h);
    for (const token of [null, 'lst_unknown', revoked]) {
      expectError(await post(token, h.a.legacyLab.id), 401, 'unauthorized');
      expectError(await get(token, h.a.legacyLab.id), 401, 'unauthorized');
    }
    expect(await dbState(h)).toEqual(afterToken);
    expect((await get(h.a.admin.token, h.a.legacyLab.id)).json().status).toBe('not_started');
  });

  it.each(['abc', '123', `${UNKNOWN_ID}x`])('422 naming id for a non-UUID id (%s)', async (id) => {
    expectValidation(await post(h.a.admin.token, id), 'id');
    expectValidation(await get(h.a.admin.token, id), 'id');
  });

  it('404 not_found for a lab that does not exist', async () => {
    expectError(await post(h.a.admin.token, UNKNOWN_ID), 404, 'not_found');
    expectError(await get(h.a.admin.token, UNKNOWN_ID), 404, 'not_found');
  });

  it('the body, if any, is an empty object: unknown fields are 422 and named, malformed JSON 400, other media 415', async () => {
    const before = await dbState(h);
    expectValidation(await post(h.a.admin.token, h.a.legacyLab.id, { batch_size: 10 }), 'batch_size');
    expectError(await post(h.a.admin.token, h.a.legacyLab.id, '{"oops', { 'content-type': 'application/json' }), 400, 'invalid_json');
    expectError(await post(h.a.admin.token, h.a.legacyLab.id, 'go', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
    expect(await dbState(h)).toEqual(before);
    expect((await get(h.a.admin.token, h.a.legacyLab.id)).json().status).toBe('not_started');
  });

  it('an empty object is accepted like no body', async () => {
    const lab = await createLab(h.deps.db, h.a.admin.actor, { organizationId: h.a.orgId, name: 'Empty body lab' });
    const res = await post(h.a.admin.token, lab.id, {});
    expect(res.statusCode, res.body).toBe(202);
    expect(await waitForMigration(h, h.a.admin.token, lab.id)).toMatchObject({ status: 'done' });
  });
});

describe('a lab whose migration is running', () => {
  it('writes racing the start either commit before their item is converted or are refused: none is lost or half-applied', async () => {
    const lab = await createLab(h.deps.db, h.a.admin.actor, { organizationId: h.a.orgId, name: 'Racing lab' });
    const ids: string[] = [];
    for (let i = 0; i < 40; i++)
      ids.push((await createItem(h.deps, h.a.admin.actor, { labId: lab.id, name: `Race ${i}`, quantity: '1', lotNumber: `R${i}` })).id);
    // Four writers work through the items; when 15 writes have committed the migration starts, while others are in flight.
    // Three kinds of write: set the quantity, adjust it to the same value, edit the lot.
    const put = (i: number) =>
      h.call(
        h.a.admin.token,
        i % 3 === 0
          ? { method: 'PUT', url: `/inventory-items/${ids[i]}`, payload: { quantity: String(100 + i) } }
          : i % 3 === 1
            ? { method: 'POST', url: `/inventory-items/${ids[i]}/adjustments`, payload: { delta: String(99 + i) } }
            : { method: 'PATCH', url: `/inventory-items/${ids[i]}`, payload: { lot_number: `P${i}` } },
      );
    const results: Awaited<ReturnType<typeof put>>[] = [];
    let next = 0;
    let starting: ReturnType<typeof post> | undefined;
    const writer = async () => {
      while (next < ids.length) {
        const i = next++;
        results[i] = await put(i);
        if (results.filter(Boolean).length >= 15) starting ??= post(h.a.admin.token, lab.id);
      }
    };
    await Promise.all([writer(), writer(), writer(), writer()]);
    const started = await starting!;
    expect(started.statusCode, started.body).toBe(202);
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200).length).toBeGreaterThanOrEqual(15);
    expect(codes.filter((c) => c !== 200).length, 'writes after the start were refused').toBeGreaterThan(0);
    await waitForMigration(h, h.a.admin.token, lab.id);
    for (const [i, res] of results.entries()) {
      // Applied, refused while it migrates, or (a late write) refused as a legacy write to a lab that uses instances.
      if (res.statusCode !== 200) expect(['lab_migrating', 'lab_uses_instances', 'validation_failed'], res.body).toContain(res.json().code);
      const item = (await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${ids[i]}` })).json();
      // One instance, holding what the answer promised.
      const applied = res.statusCode === 200;
      const expected = i % 3 === 2 ? ['1', applied ? `P${i}` : `R${i}`] : [applied ? String(100 + i) : '1', `R${i}`];
      expect(
        item.instances.map((x: any) => [x.quantity, x.lot_number]),
        `write ${i}: ${res.statusCode}`,
      ).toEqual([expected]);
    }
  });

  it('refuses to receive goods into it (409 lab_migrating), changing nothing; the request can be received once it is done', async () => {
    const lab = await createLab(h.deps.db, h.a.admin.actor, { organizationId: h.a.orgId, name: 'Receiving lab' });
    const type = await createType(h.deps, h.a.admin.actor, { labId: lab.id, name: 'Enzyme' });
    await createItem(h.deps, h.a.admin.actor, {
      labId: lab.id,
      name: 'Taq',
      vendor: 'NEB',
      catalogNumber: 'M0273',
      quantity: '1',
      lotNumber: 'T1',
    });
    const order = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/order-requests',
      payload: {
        lab_id: lab.id,
        type_id: type.id,
        name: 'Taq',
        vendor_name: 'NEB',
        catalog_number: 'M0273',
        price: { amount: '100', currency: 'USD' },
        quantity: 2,
      },
    });
    expect(order.statusCode, order.body).toBe(201);
    const ordered = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/order-requests/${order.json().id}`,
      payload: { status: 'ORDERED' },
    });
    expect(ordered.statusCode, ordered.body).toBe(200);

    await startMigration(h.deps.db, systemActor('cli'), lab.id);
    const before = await dbState(h);
    const received = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/order-requests/${order.json().id}`,
      payload: { status: 'RECEIVED' },
    });
    expectError(received, 409, 'lab_migrating');
    expect(await dbState(h)).toEqual(before);
    expect((await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/${order.json().id}` })).json().status).toBe('ORDERED');

    expect((await post(h.a.admin.token, lab.id)).statusCode).toBe(202);
    await waitForMigration(h, h.a.admin.token, lab.id);
    const again = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/order-requests/${order.json().id}`,
      payload: { status: 'RECEIVED' },
    });
    expect(again.statusCode, again.body).toBe(200);
    const items = (await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items?lab_id=${lab.id}` })).json();
    expect(items).toHaveLength(1);
    // The migrated lab received the goods as a new instance beside the one the migration made.
    expect(items[0].instances.map((i: any) => [i.quantity, i.lot_number])).toEqual([
      ['1', 'T1'],
      ['2', null],
    ]);
    expect(items[0].quantity).toBe('3');
  });
});
