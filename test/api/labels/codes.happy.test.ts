// Label codes (docs/labels.md, docs/product.md §14 "Codes"): every container, location and legacy item gets one in the
// transaction that creates it, on every path; GET /codes/{code} and GET /codes answer with the thing and its page.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createItem } from '../../../src/inventory/items.js';
import { createLab } from '../../../src/labs/service.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { waitForMigration } from '../../helpers/lab-migration.js';
import { importCsv } from '../inventory-csv/_helpers.js';
import { receive } from '../put-away/_put-away.js';
import { CODE_SHAPE, codeOf, codesOf, resolve } from './_labels.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

const lab = () => h.a.migratedLab;

describe('label codes (happy)', () => {
  it('the fixture rows have codes of 10 unambiguous characters, all different', async () => {
    const codes = [
      ...(await Promise.all(lab().instanceIds.map((id) => codeOf(h, 'instance', id)))),
      ...(await Promise.all(lab().locationIds.map((id) => codeOf(h, 'location', id)))),
      await codeOf(h, 'item', h.a.legacyLab.itemId),
    ];
    for (const c of codes) expect(c).toMatch(CODE_SHAPE);
    expect(new Set(codes).size).toBe(codes.length);
    // A migrated lab's item has no code of its own: its containers do.
    expect(await codeOf(h, 'item', lab().itemId)).toBeUndefined();
  });

  it('GET /codes/{code} of an instance: the item, the instance, its location, the label text and the page; any case, with dashes', async () => {
    const instanceId = lab().instanceIds[0]!;
    const code = (await codeOf(h, 'instance', instanceId))!;
    const res = await resolve(h, h.a.member.token, code);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      code,
      kind: 'instance',
      lab_id: lab().id,
      item_id: lab().itemId,
      instance_id: instanceId,
      location_id: lab().locationIds[2],
      title: 'Anti-GFP A',
      lines: ['Lot A1  Exp 2027-06-30', 'Room 101 / Freezer A / Shelf 2', 'Migrated lab A'],
      label: 'Anti-GFP A · Lot A1  Exp 2027-06-30 · Room 101 / Freezer A / Shelf 2 · Migrated lab A',
      app_path: `/app/inventory/items/${lab().itemId}?instance=${instanceId}`,
      label_url: `http://labstock.test/app/c/${code}`,
      archived: false,
    });
    const typed = `${code.slice(0, 5).toLowerCase()}-${code.slice(5)}`;
    expect((await resolve(h, h.a.member.token, typed)).json().instance_id).toBe(instanceId);
  });

  it('a location and a legacy item resolve to their pages', async () => {
    const locationId = lab().locationIds[1]!;
    const loc = await resolve(h, h.a.admin.token, (await codeOf(h, 'location', locationId))!);
    expect(loc.json()).toMatchObject({
      kind: 'location',
      item_id: null,
      instance_id: null,
      location_id: locationId,
      title: 'Freezer A',
      lines: ['Room 101 / Freezer A', 'Migrated lab A'],
      app_path: `/app/locations?lab=${lab().id}&location=${locationId}`,
    });
    const item = await resolve(h, h.a.member.token, (await codeOf(h, 'item', h.a.legacyLab.itemId))!);
    expect(item.json()).toMatchObject({
      kind: 'item',
      item_id: h.a.legacyLab.itemId,
      instance_id: null,
      title: 'Ethanol A',
      lines: ['Lot LOT-1  Exp 2027-01-31', 'Cabinet 1 / Shelf A', 'Legacy lab A'],
      app_path: `/app/inventory/items/${h.a.legacyLab.itemId}`,
    });
  });

  it('GET /codes by instance, location or item (an item: its containers on the shelf)', async () => {
    const [first, second] = lab().instanceIds;
    const byInstance = await codesOf(h, h.a.member.token, `instance_id=${first}`);
    expect(byInstance.statusCode, byInstance.body).toBe(200);
    expect(byInstance.json().map((c: any) => c.code)).toEqual([await codeOf(h, 'instance', first!)]);
    const byItem = (await codesOf(h, h.a.member.token, `item_id=${lab().itemId}`)).json();
    expect(byItem.map((c: any) => c.instance_id).sort()).toEqual([first, second].sort());
    const legacy = (await codesOf(h, h.a.member.token, `item_id=${h.a.legacyLab.itemId}`)).json();
    expect(legacy.map((c: any) => c.kind)).toEqual(['item']);
    const loc = (await codesOf(h, h.a.member.token, `location_id=${lab().locationIds[0]}`)).json();
    expect(loc.map((c: any) => c.title)).toEqual(['Room 101']);
  });

  it('new locations, containers and received goods get codes as they are made', async () => {
    const created = await h.call(h.a.member.token, {
      method: 'POST',
      url: '/locations',
      payload: { lab_id: lab().id, parent_id: lab().locationIds[0], name: 'Bench 3' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(await codeOf(h, 'location', created.json().id)).toMatch(CODE_SHAPE);

    const added = await h.call(h.a.member.token, {
      method: 'POST',
      url: `/inventory-items/${lab().itemId}/instances`,
      payload: { quantity: '1', lot_number: 'NEW-1', location_id: created.json().id },
    });
    expect(added.statusCode, added.body).toBe(201);
    const ids = (added.json().instances as any[]).map((i) => i.id).filter((id) => !lab().instanceIds.includes(id));
    expect(ids).toHaveLength(1);
    const code = (await codeOf(h, 'instance', ids[0]))!;
    expect((await resolve(h, h.a.member.token, code)).json().lines).toContain('Room 101 / Bench 3');

    const received = await receive(h, h.a.member.token, lab());
    expect(await codeOf(h, 'instance', received.instanceId)).toMatch(CODE_SHAPE);
  });

  it('a CSV import gives codes to the containers and locations it makes (a legacy lab: to each item)', async () => {
    const csv = ['Name,Qty,Lot,Location', 'Codes buffer,2,CB1,Cold room 9 / Rack Z'].join('\r\n');
    expect((await importCsv(h, h.a.member.token, lab().id, csv)).statusCode).toBe(200);
    const rack = await h.deps.db.selectFrom('locations').select('id').where('name', '=', 'Rack Z').executeTakeFirstOrThrow();
    const instance = await h.deps.db
      .selectFrom('inventory_item_instances')
      .innerJoin('inventory_items', 'inventory_items.id', 'inventory_item_instances.item_id')
      .select('inventory_item_instances.id')
      .where('inventory_items.name', '=', 'Codes buffer')
      .executeTakeFirstOrThrow();
    expect(await codeOf(h, 'location', rack.id)).toMatch(CODE_SHAPE);
    expect(await codeOf(h, 'instance', instance.id)).toMatch(CODE_SHAPE);

    const legacyCsv = ['Name,Qty,Lot', 'Legacy codes salt,1,LS1'].join('\r\n');
    expect((await importCsv(h, h.a.member.token, h.a.legacyLab.id, legacyCsv)).statusCode).toBe(200);
    const item = await h.deps.db
      .selectFrom('inventory_items')
      .select('id')
      .where('name', '=', 'Legacy codes salt')
      .executeTakeFirstOrThrow();
    expect(await codeOf(h, 'item', item.id)).toMatch(CODE_SHAPE);
  });

  it("a lab's migration gives each new container and location a code; the item's own code still opens the item", async () => {
    const legacy = await createLab(h.deps.db, h.a.admin.actor, { organizationId: h.a.orgId, name: 'Codes migration lab' });
    const item = await createItem(h.deps, h.a.admin.actor, {
      labId: legacy.id,
      name: 'Migrating acetone',
      quantity: '2',
      lotNumber: 'MA1',
      locationName: 'Flammables',
      sublocationName: 'Bottom',
    });
    const itemCode = (await codeOf(h, 'item', item.id))!;
    const res = await h.call(h.a.admin.token, { method: 'POST', url: `/labs/${legacy.id}/migrate-to-instances` });
    expect(res.statusCode, res.body).toBe(202);
    await waitForMigration(h, h.a.admin.token, legacy.id);
    const instance = await h.deps.db
      .selectFrom('inventory_item_instances')
      .selectAll()
      .where('item_id', '=', item.id)
      .executeTakeFirstOrThrow();
    const code = (await codeOf(h, 'instance', instance.id))!;
    expect((await resolve(h, h.a.admin.token, code)).json()).toMatchObject({
      kind: 'instance',
      lines: ['Lot MA1', 'Flammables / Bottom', 'Codes migration lab'],
    });
    expect(await codeOf(h, 'location', instance.location_id!)).toMatch(CODE_SHAPE);
    expect((await resolve(h, h.a.admin.token, itemCode)).json()).toMatchObject({ kind: 'item', item_id: item.id });
  });

  it('an archived container keeps its code and still resolves, marked archived', async () => {
    const r = await receive(h, h.a.member.token, lab());
    const code = (await codeOf(h, 'instance', r.instanceId))!;
    const archived = await h.call(h.a.member.token, {
      method: 'POST',
      url: `/inventory-items/${r.itemId}/instances/${r.instanceId}/archive`,
    });
    expect(archived.statusCode, archived.body).toBe(200);
    expect((await resolve(h, h.a.member.token, code)).json()).toMatchObject({ instance_id: r.instanceId, archived: true });
  });
});
