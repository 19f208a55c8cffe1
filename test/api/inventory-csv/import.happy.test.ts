// POST /labs/{id}/inventory/import: a good file in a migrated lab and in a legacy lab, dry run and real run.
import { afterEach, describe, expect, it } from 'vitest';
import { eventMark, eventsSince, expectMatchesPublishedSchema } from '../../helpers/events.js';
import { expectHoldingsTrue } from '../../helpers/holdings.js';
import { useHarness } from '../../helpers/use-harness.js';
import { importCsv, inventorySnapshot } from './_helpers.js';

const h = useHarness();
// Whatever the writes did, the control-area totals still add up to the containers (src/hazards/holdings-repository.ts).
afterEach(() => expectHoldingsTrue(h.deps.db));

const migratedCsv = [
  'Name,Vendor,Catalog #,Type,Qty,Lot,Expiry,Location,CAS',
  'Anti-CD3,Abcam,ab5690,antibody,0.5,L1,2027-01-31,Room 101 / Freezer A / Shelf 2,',
  'Anti-CD3,Abcam,ab5690,Antibody,0.25,L2,2026-12-01,Room 101 / Freezer B,',
  '',
  'Tris base,Sigma,T1503,,500,,,,77-86-1',
  'Empty box,,,,,,,,',
  '"Tips, 200 µL",Sartorius,"T""200",,960,,,"Cold room / Rack ""A""",',
].join('\r\n');

describe('POST /labs/{id}/inventory/import (happy)', () => {
  it('a dry run reports the counts and changes nothing', async () => {
    const before = await inventorySnapshot(h);
    const res = await importCsv(h, h.a.member.token, h.a.migratedLab.id, migratedCsv, true);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ dry_run: true, rows: 5, items: 4, instances: 4, locations_created: 3, error_count: 0, errors: [] });
    expect(await inventorySnapshot(h)).toEqual(before);
  });

  it('a real run creates items, instances and the missing locations (existing ones reused), one created event per item', async () => {
    const mark = await eventMark(h);
    const locationsBefore = await h.deps.db.selectFrom('locations').selectAll().where('lab_id', '=', h.a.migratedLab.id).execute();
    const res = await importCsv(h, h.a.member.token, h.a.migratedLab.id, migratedCsv);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ dry_run: false, rows: 5, items: 4, instances: 4, locations_created: 3, error_count: 0, errors: [] });
    const locationsAfter = await h.deps.db.selectFrom('locations').selectAll().where('lab_id', '=', h.a.migratedLab.id).execute();
    expect(locationsAfter.length - locationsBefore.length).toBe(3); // Freezer B, Cold room, Rack "A": Room 101 / Freezer A / Shelf 2 existed

    const events = await eventsSince(h, mark);
    expect(events.map((e) => e.row.type)).toEqual(Array(4).fill('com.labstock.inventory-item.created'));
    for (const e of events) await expectMatchesPublishedSchema(h, 'inventory-item.created', e.event);
    const byName = new Map(events.map((e) => [(e.event.data as any).inventory_item.name, (e.event.data as any).inventory_item]));
    const cd3 = byName.get('Anti-CD3');
    expect(cd3.type.name).toBe('Antibody');
    expect(cd3.quantity).toBe('0.75');
    expect(cd3.added_by.id).toBe(h.a.member.id);
    expect(cd3.instances.map((i: any) => [i.quantity, i.lot_number, i.expiration_date, i.location?.pathNames])).toEqual([
      ['0.5', 'L1', '2027-01-31', ['Room 101', 'Freezer A', 'Shelf 2']],
      ['0.25', 'L2', '2026-12-01', ['Room 101', 'Freezer B']],
    ]);
    expect(cd3.instances[0].location).toEqual({ name: 'Shelf 2', pathNames: ['Room 101', 'Freezer A', 'Shelf 2'] });
    expect(byName.get('Tris base').cas_number).toBe('77-86-1');
    expect(byName.get('Empty box').instances).toEqual([]);
    expect(byName.get('Empty box').quantity).toBe('0');
    const tips = byName.get('Tips, 200 µL');
    expect(tips.catalog_number).toBe('T"200');
    expect(tips.instances[0].location.pathNames).toEqual(['Cold room', 'Rack "A"']);

    // What GET answers is what the events carried; the items are searchable.
    const got = await h.call(h.a.member.token, { method: 'GET', url: `/inventory-items/${cd3.id}` });
    expect(got.json()).toEqual(cd3);
    const found = await h.call(h.a.member.token, { method: 'GET', url: `/inventory-items?lab_id=${h.a.migratedLab.id}&q=T1503` });
    expect(found.json().map((i: any) => i.name)).toEqual(['Tris base']);
    const expiring = await h.call(h.a.member.token, {
      method: 'GET',
      url: `/inventory-items?lab_id=${h.a.migratedLab.id}&expiring_before=2026-12-31`,
    });
    expect(expiring.json().map((i: any) => i.name)).toContain('Anti-CD3');
  });

  it('a legacy lab: one item per row, location and sublocation from a two-level path, quantity on the item', async () => {
    const mark = await eventMark(h);
    const csv =
      'name,quantity,lot_number,expiration_date,location,price,type\nAcetone,2.5,A-1,2028-05-01,Cabinet 3 / Shelf B,12.00,reagent\nAcetone,1,,,,,\n';
    const res = await importCsv(h, h.a.admin.token, h.a.legacyLab.id, csv);
    expect(res.json()).toEqual({ dry_run: false, rows: 2, items: 2, instances: 0, locations_created: 0, error_count: 0, errors: [] });
    const items = (await eventsSince(h, mark)).map((e) => (e.event.data as any).inventory_item);
    expect(
      items.map((i) => [i.name, i.quantity, i.lot_number, i.expiration_date, i.location, i.sublocation, i.price, i.type?.name]),
    ).toEqual([
      ['Acetone', '2.5', 'A-1', '2028-05-01', { name: 'Cabinet 3' }, { name: 'Shelf B' }, '12.00', 'Reagent'],
      ['Acetone', '1', null, null, null, null, null, undefined],
    ]);
    expect(items.every((i) => i.lab.uses_instances === false && i.instances.length === 0)).toBe(true);
  });

  it('takes back the apostrophe the export puts before formula cells; a header with a BOM and odd spacing maps', async () => {
    const csv = "\uFEFF NAME , Technical Details \n'=SUM(A1),'-80 °C\n";
    const mark = await eventMark(h);
    expect((await importCsv(h, h.a.admin.token, h.a.legacyLab.id, csv)).statusCode).toBe(200);
    const [item] = (await eventsSince(h, mark)).map((e) => (e.event.data as any).inventory_item);
    expect([item.name, item.technical_details]).toEqual(['=SUM(A1)', '-80 °C']);
  });
});
