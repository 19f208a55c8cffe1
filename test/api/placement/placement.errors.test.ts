import { afterEach, describe, expect, it } from 'vitest';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { expectHoldingsTrue } from '../../helpers/holdings.js';
import { useHarness } from '../../helpers/use-harness.js';
import { activeCount, addInstance, move, preflight, scenario, setModes } from './_placement.js';

// Block mode (docs/safety.md): each write that would put the area over its limit or an incompatible container
// beside another is refused with 409 and the same words, and changes nothing. And the preflight's bad input.

const h = useHarness();
// Whatever the writes did, the control-area totals still add up to the containers (src/hazards/holdings-repository.ts).
afterEach(() => expectHoldingsTrue(h.deps.db));

const instanceRow = (id: string) =>
  h.deps.db.selectFrom('inventory_item_instances').select(['quantity', 'location_id']).where('id', '=', id).executeTakeFirstOrThrow();

describe('placement checks, block mode', () => {
  it('adding an instance over the limit: 409 limit_exceeded with the figures, nothing added', async () => {
    const s = await scenario(h);
    await setModes(h, s.labId, 'warn', 'block');
    const check = await preflight(h, h.a.admin.token, { location_id: s.cabinetId, items: [{ item_id: s.acetone.itemId, quantity: '2' }] });
    expect(check.json().blocked).toBe(true);
    const res = await addInstance(h, s.acetone.itemId, s.cabinetId, '2');
    const body = expectError(res, 409, 'limit_exceeded');
    expect(body.message).toMatch(/Flammable liquids IB and IC in Solvent cabinet \d+: 4 L of 5 L; this adds 2 L, 1 L over the limit/);
    expect(await activeCount(h, s.acetone.itemId)).toBe(1);
    // What fits still goes in.
    expect((await addInstance(h, s.acetone.itemId, s.cabinetId, '1')).statusCode).toBe(201);
  });

  it("the contract's PUT of an instance quantity refuses more than fits and keeps its shape otherwise", async () => {
    const s = await scenario(h);
    await setModes(h, s.labId, 'warn', 'block');
    const url = `/inventory-items/${s.acetone.itemId}/instances/${s.acetone.instanceId}`;
    const more = await h.call(h.a.admin.token, { method: 'PUT', url, payload: { quantity: '6' } });
    expectError(more, 409, 'limit_exceeded');
    expect((await instanceRow(s.acetone.instanceId)).quantity).toBe('4');
    const less = await h.call(h.a.admin.token, { method: 'PUT', url, payload: { quantity: '3' } });
    expect(less.statusCode, less.body).toBe(200);
    expect(Object.keys(less.json())).not.toContain('warnings');
    const fits = await h.call(h.a.admin.token, { method: 'PUT', url, payload: { quantity: '5' } });
    expect(fits.statusCode, fits.body).toBe(200);
  });

  it('moving an oxidizer beside a solvent: 409 segregation_conflict naming the container, the instance stays', async () => {
    const s = await scenario(h);
    await setModes(h, s.labId, 'block', 'warn');
    const res = await move(h, s.peroxide.itemId, s.peroxide.instanceId, s.cabinetId);
    const body = expectError(res, 409, 'segregation_conflict');
    expect(body.message).toMatch(/beside Acetone \d+ \(flammables\)/);
    expect((await instanceRow(s.peroxide.instanceId)).location_id).toBe(s.shelfId);
  });

  it('putting away into the area over its limit: 409, the instance still waits', async () => {
    const s = await scenario(h);
    await setModes(h, s.labId, 'warn', 'block');
    const extra = await addInstance(h, s.acetone.itemId, s.shelfId, '3');
    expect(extra.statusCode, extra.body).toBe(201);
    const { id } = await h.deps.db
      .selectFrom('inventory_item_instances')
      .select('id')
      .where('item_id', '=', s.acetone.itemId)
      .where('location_id', '=', s.shelfId)
      .executeTakeFirstOrThrow();
    const res = await h.call(h.a.admin.token, {
      method: 'POST',
      url: `/inventory-items/${s.acetone.itemId}/instances/${id}/put-away`,
      payload: { location_id: s.cabinetId },
    });
    expectError(res, 409, 'limit_exceeded');
    expect((await instanceRow(id)).location_id).toBe(s.shelfId);
  });

  it('approving and receiving over the limit: 409, the request keeps its status and nothing is received', async () => {
    const s = await scenario(h);
    await setModes(h, s.labId, 'warn', 'block');
    const catalog = (
      await h.deps.db.selectFrom('inventory_items').select('catalog_number').where('id', '=', s.acetone.itemId).executeTakeFirstOrThrow()
    ).catalog_number!;
    const create = await h.call(h.a.member.token, {
      method: 'POST',
      url: '/order-requests',
      payload: {
        lab_id: s.labId,
        type_id: h.a.migratedLab.typeId,
        name: 'Acetone',
        vendor_name: s.vendor,
        catalog_number: catalog,
        price: { amount: '1000', currency: 'USD' },
        quantity: 2,
      },
    });
    expect(create.statusCode, create.body).toBe(201);
    const id = create.json().id;
    const approve = await h.call(h.a.admin.token, { method: 'PUT', url: `/order-requests/${id}`, payload: { status: 'APPROVED' } });
    const body = expectError(approve, 409, 'limit_exceeded');
    expect(body.message).toMatch(/this adds 2 L, 1 L over the limit/);
    expect((await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/${id}` })).json().status).toBe('CREATED');

    const ordered = await h.call(h.a.admin.token, { method: 'PUT', url: `/order-requests/${id}`, payload: { status: 'ORDERED' } });
    expect(ordered.statusCode, ordered.body).toBe(200);
    const receive = await h.call(h.a.admin.token, {
      method: 'POST',
      url: `/order-requests/${id}/receive`,
      payload: { location_id: s.cabinetId },
    });
    expectError(receive, 409, 'limit_exceeded');
    expect(await activeCount(h, s.acetone.itemId)).toBe(1);
    expect((await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/${id}` })).json().status).toBe('ORDERED');
  });
});

describe('GET /locations/{id}/control-area/meter: bad input', () => {
  it('422 for an unknown_limit below 0, above 1,000 or not a whole number', async () => {
    const s = await scenario(h);
    for (const v of ['-1', '1001', '2.5', 'all'])
      expectValidation(
        await h.call(h.a.admin.token, { method: 'GET', url: `/locations/${s.cabinetId}/control-area/meter?unknown_limit=${v}` }),
        'unknown_limit',
      );
  });
});

describe('POST /placement-checks: bad input', () => {
  it('422 for a missing location, a bad quantity or an unknown field; 404 for an instance of another lab', async () => {
    const s = await scenario(h);
    expectValidation(await preflight(h, h.a.admin.token, { items: [] }), 'location_id');
    expectValidation(
      await preflight(h, h.a.admin.token, { location_id: s.cabinetId, items: [{ item_id: s.acetone.itemId, quantity: '-1' }] }),
      'items[0].quantity',
    );
    expectValidation(await preflight(h, h.a.admin.token, { location_id: s.cabinetId, colour: 'red' }), 'colour');
    const legacyItem = h.a.legacyLab.itemId;
    expectError(
      await preflight(h, h.a.admin.token, { location_id: s.cabinetId, items: [{ item_id: legacyItem, quantity: '1' }] }),
      404,
      'not_found',
    );
  });
});
