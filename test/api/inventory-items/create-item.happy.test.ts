// POST /inventory-items: docs/product.md §5 (legacy lab: quantity/lot/expiry/location on the item; migrated lab: instances,
// legacy-only fields 422) and §7 (inventory-item.created with instances and lab.uses_instances).

import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { adminSummary, appUrlOf, dbState, eventsAfter, expectItemShape, getItemJson, labJson, memberSummary } from './_helpers.js';

const h = useHarness();

const post = (token: string | null, payload: unknown, extra: Partial<InjectOptions> = {}) =>
  h.call(token, { method: 'POST', url: '/inventory-items', payload: payload as any, ...extra });

/** Posts, expects 201 + ETag + Location, GET agrees, and exactly one inventory-item.created equal to the body. */
async function created(token: string, payload: Record<string, unknown>): Promise<any> {
  const before = (await dbState(h)).events;
  const res = await post(token, payload);
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json();
  expectItemShape(body);
  expect(res.headers.etag).toMatch(/^"[^"]+"$/);
  expect(res.headers.location).toBe(`/inventory-items/${body.id}`);
  const got = await getItemJson(h, h.a.admin.token, body.id);
  expect(got.body).toEqual(body);
  expect(got.etag).toBe(res.headers.etag);
  const events = await eventsAfter(h, before);
  expect(events.map((e) => e.type)).toEqual(['com.labstock.inventory-item.created']);
  const e = events[0]!;
  expect(e.event).toMatchObject({
    specversion: '1.0',
    id: e.id,
    source: 'https://labstock.test',
    type: 'com.labstock.inventory-item.created',
    datacontenttype: 'application/json',
  });
  expect(Object.keys(e.event.data)).toEqual(['inventory_item']);
  expect(e.event.data.inventory_item).toEqual(body);
  expect(e.lab_id).toBe(body.lab.id);
  expect(e.organization_id).toBe(body.lab.organization.id);
  return body;
}

describe('POST /inventory-items (happy)', () => {
  it('legacy lab: 201 with every field given, quantity/lot/expiry/location/sublocation on the item, instances []', async () => {
    const body = await created(h.a.admin.token, {
      lab_id: h.a.legacyLab.id,
      name: 'Acetone',
      type_id: h.a.legacyLab.typeId,
      vendor: 'Merck',
      catalog_number: '1.00014',
      price: '19.90',
      unit_size: '2.5 L',
      url: 'https://example.org/acetone',
      technical_details: 'ACS grade',
      auto_reminder: 'monthly',
      cas_number: '67-64-1',
      serial_number: 'SN-1',
      vendor_product_id: null,
      quantity: '2.75',
      lot_number: 'K123',
      expiration_date: '2028-02-29',
      location: { name: 'Solvent cabinet' },
      sublocation: { name: 'Bottom' },
    });
    expect(body).toEqual({
      id: body.id,
      name: 'Acetone',
      vendor: 'Merck',
      catalog_number: '1.00014',
      price: '19.90',
      unit_size: '2.5 L',
      quantity: '2.75',
      url: 'https://example.org/acetone',
      technical_details: 'ACS grade',
      expiration_date: '2028-02-29',
      auto_reminder: 'monthly',
      lot_number: 'K123',
      cas_number: '67-64-1',
      vendor_product_id: null,
      lab: labJson(h.a.legacyLab.id, 'Legacy lab A', h.a, 'A', false),
      type: { id: h.a.legacyLab.typeId, name: 'Reagent' },
      location: { name: 'Solvent cabinet' },
      sublocation: { name: 'Bottom' },
      added_by: adminSummary(h.a, 'A'),
      updated_by: adminSummary(h.a, 'A'),
      serial_number: 'SN-1',
      instances: [],
      app_url: appUrlOf(h.config.appUrl, body.id),
    });
  });

  it('legacy lab, only lab_id and name: quantity "0", everything else null', async () => {
    const body = await created(h.a.admin.token, { lab_id: h.a.legacyLab.id, name: 'Bare' });
    expect(body).toMatchObject({
      name: 'Bare',
      quantity: '0',
      type: null,
      vendor: null,
      lot_number: null,
      expiration_date: null,
      location: null,
      sublocation: null,
      instances: [],
    });
  });

  it('migrated lab: instances[] become instances; quantity is their exact sum ("0.1" + "0.2" = "0.3"); parent legacy fields null', async () => {
    const [room, , shelf] = h.a.migratedLab.locationIds;
    const body = await created(h.a.admin.token, {
      lab_id: h.a.migratedLab.id,
      name: 'Anti-HA',
      type_id: h.a.migratedLab.typeId,
      vendor: 'CST',
      catalog_number: '3724',
      instances: [
        { quantity: '0.1', lot_number: 'L1', expiration_date: '2027-05-01', location_id: shelf },
        { quantity: '0.2', location_id: room },
        { quantity: '0' },
      ],
    });
    expect(body.quantity).toBe('0.3');
    expect(body.lab).toEqual(labJson(h.a.migratedLab.id, 'Migrated lab A', h.a, 'A', true));
    expect(body).toMatchObject({ lot_number: null, expiration_date: null, location: null, sublocation: null });
    expect(body.instances.map((i: any) => ({ ...i, id: undefined }))).toEqual([
      {
        id: undefined,
        quantity: '0.1',
        lot_number: 'L1',
        expiration_date: '2027-05-01',
        location: { name: 'Shelf 2', pathNames: ['Room 101', 'Freezer A', 'Shelf 2'] },
      },
      { id: undefined, quantity: '0.2', lot_number: null, expiration_date: null, location: { name: 'Room 101', pathNames: ['Room 101'] } },
      { id: undefined, quantity: '0', lot_number: null, expiration_date: null, location: null },
    ]);
    expect(new Set(body.instances.map((i: any) => i.id)).size).toBe(3);
  });

  it('migrated lab without instances: quantity "0", instances []; an empty instances array is fine in a legacy lab', async () => {
    const m = await created(h.a.admin.token, { lab_id: h.a.migratedLab.id, name: 'Empty for now' });
    expect(m).toMatchObject({ quantity: '0', instances: [] });
    const l = await created(h.a.admin.token, { lab_id: h.a.legacyLab.id, name: 'No instances', quantity: '1', instances: [] });
    expect(l).toMatchObject({ quantity: '1', instances: [] });
  });

  it('a member creates an item in their lab; added_by and updated_by are the member', async () => {
    const body = await created(h.a.member.token, { lab_id: h.a.legacyLab.id, name: 'Member item', quantity: '5' });
    expect(body.added_by).toEqual(memberSummary(h.a, 'A'));
    expect(body.updated_by).toEqual(memberSummary(h.a, 'A'));
  });

  it('the new item is listed in its lab', async () => {
    const body = await created(h.a.admin.token, { lab_id: h.a.otherLab.id, name: 'Listed', type_id: h.a.otherLab.typeId });
    const list = await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items?lab_id=${h.a.otherLab.id}` });
    expect(list.json()).toEqual([body]);
  });
});
