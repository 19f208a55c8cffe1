// A container's GTIN and serial (docs/scanning.md "Identifiers"): stored at receiving in the same submission (adding
// an instance, putting one away, receiving an order request), read and set on their own endpoint, and found again
// by a later scan of the same vendor barcode. Runs on SQLite and (with DATABASE_URL) PostgreSQL.

import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { putAway, receive } from '../put-away/_put-away.js';
import { GS } from './_gs1.js';
import {
  addedInstance,
  addInstance,
  findBy,
  freshItem,
  GTIN,
  GTIN13,
  getIds,
  identifierRows,
  listIds,
  OTHER_GTIN,
  putIds,
} from './_identifiers.js';

const h = useHarness();
const token = () => h.a.member.token;

describe('container identifiers (happy)', () => {
  it('adding an instance with the scanned GTIN and serial stores them with it; the item itself is unchanged in shape', async () => {
    const itemId = await freshItem(h);
    const instanceId = await addedInstance(h, token(), itemId, {
      quantity: '1',
      lot_number: 'LOT-A',
      identifiers: { gtin: GTIN13, serial_number: 'SN-0001' },
    });
    const res = await getIds(h, token(), itemId, instanceId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ instance_id: instanceId, item_id: itemId, gtin: GTIN, serial_number: 'SN-0001' });
    expect(res.json().updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // The contract's item and instance carry no new field.
    const item = (await h.call(token(), { method: 'GET', url: `/inventory-items/${itemId}` })).json();
    expect(Object.keys(item.instances[0]).sort()).not.toContain('gtin');
    expect(JSON.stringify(item)).not.toContain('SN-0001');
  });

  it('the same submission sent twice (one Idempotency-Key) makes one container with one set of identifiers', async () => {
    const itemId = await freshItem(h);
    const before = await identifierRows(h);
    const body = { quantity: '1', identifiers: { gtin: GTIN, serial_number: 'SN-TWICE' } };
    const headers = { 'idempotency-key': `ids-${itemId}` };
    const first = await addInstance(h, token(), itemId, body, headers);
    const second = await addInstance(h, token(), itemId, body, headers);
    expect(first.statusCode, first.body).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json().instances).toHaveLength(1);
    expect(await identifierRows(h)).toBe(before + 1);
  });

  it('an instance without any has both null; PUT sets, replaces and clears them; the item lists those that have any', async () => {
    const itemId = await freshItem(h);
    const plain = await addedInstance(h, token(), itemId, { quantity: '1' });
    const scanned = await addedInstance(h, token(), itemId, { quantity: '1', identifiers: { gtin: GTIN, serial_number: null } });
    expect((await getIds(h, token(), itemId, plain)).json()).toEqual({
      instance_id: plain,
      item_id: itemId,
      gtin: null,
      serial_number: null,
      updated_at: null,
    });
    const set = await putIds(h, token(), itemId, plain, { gtin: OTHER_GTIN, serial_number: 'X-1' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ gtin: OTHER_GTIN, serial_number: 'X-1' });
    const list = await listIds(h, token(), itemId);
    expect(list.statusCode).toBe(200);
    expect(list.json().map((r: any) => [r.instance_id, r.gtin, r.serial_number])).toEqual(
      expect.arrayContaining([
        [plain, OTHER_GTIN, 'X-1'],
        [scanned, GTIN, null],
      ]),
    );
    expect(list.json()).toHaveLength(2);
    const cleared = await putIds(h, token(), itemId, plain, { gtin: null, serial_number: null });
    expect(cleared.json()).toMatchObject({ gtin: null, serial_number: null, updated_at: null });
    expect((await listIds(h, token(), itemId)).json().map((r: any) => r.instance_id)).toEqual([scanned]);
  });

  it("a correction is a line of the item's history: who set or cleared which, from what; the same values again add none", async () => {
    const itemId = await freshItem(h);
    const instanceId = await addedInstance(h, token(), itemId, { quantity: '1', identifiers: { gtin: GTIN, serial_number: null } });
    const lines = async () =>
      (await h.call(token(), { method: 'GET', url: `/inventory-items/${itemId}/history` }))
        .json()
        .filter((c: any) => c.field === 'instance.gtin' || c.field === 'instance.serial_number')
        .map((c: any) => [c.field, c.instance_id, c.old_value, c.new_value, c.changed_by?.id]);
    expect(await lines()).toEqual([]);
    expect((await putIds(h, token(), itemId, instanceId, { gtin: OTHER_GTIN, serial_number: 'SN-9' })).statusCode).toBe(200);
    expect((await putIds(h, token(), itemId, instanceId, { gtin: OTHER_GTIN, serial_number: 'SN-9' })).statusCode).toBe(200);
    expect((await putIds(h, token(), itemId, instanceId, { gtin: OTHER_GTIN, serial_number: null })).statusCode).toBe(200);
    const who = h.a.member.id;
    expect(await lines()).toEqual(
      expect.arrayContaining([
        ['instance.gtin', instanceId, GTIN, OTHER_GTIN, who],
        ['instance.serial_number', instanceId, null, 'SN-9', who],
        ['instance.serial_number', instanceId, 'SN-9', null, who],
      ]),
    );
    expect(await lines()).toHaveLength(3);
  });

  it('receiving an order request and putting away keep the scanned identifiers with the container', async () => {
    const lab = h.a.migratedLab;
    const got = await receive(h, token(), lab, { identifiers: { gtin: GTIN, serial_number: 'SN-RECEIVED' } });
    expect((await getIds(h, token(), got.itemId, got.instanceId)).json()).toMatchObject({ gtin: GTIN, serial_number: 'SN-RECEIVED' });
    const later = await receive(h, token(), lab);
    const res = await putAway(h, token(), later.itemId, later.instanceId, {
      lot_number: 'LOT-PA',
      identifiers: { gtin: OTHER_GTIN, serial_number: 'SN-PUT-AWAY' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await getIds(h, token(), later.itemId, later.instanceId)).json()).toMatchObject({
      gtin: OTHER_GTIN,
      serial_number: 'SN-PUT-AWAY',
    });
  });

  it('a later scan of the same barcode finds the container: GTIN and serial, or GTIN and lot without a serial', async () => {
    const itemId = await freshItem(h);
    const serial = `SN${Date.now().toString(36)}`.toUpperCase();
    const bySerial = await addedInstance(h, token(), itemId, {
      quantity: '1',
      lot_number: 'LOT-S',
      identifiers: { gtin: GTIN, serial_number: serial },
    });
    const lot = `L${Date.now().toString(36)}`.toUpperCase();
    const byLot = await addedInstance(h, token(), itemId, { quantity: '1', lot_number: lot, identifiers: { gtin: GTIN } });

    const found = await findBy(h, token(), `]d201${GTIN}17271231${'10'}LOT-S${GS}21${serial}`);
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().matched_by).toBe('gtin_and_serial');
    expect(found.json().reading.serial_number).toBe(serial);
    expect(found.json().containers).toEqual([
      expect.objectContaining({
        instance_id: bySerial,
        item_id: itemId,
        lab: { id: h.a.migratedLab.id, name: expect.any(String) },
        serial_number: serial,
        archived: false,
        app_path: `/app/inventory/items/${itemId}?instance=${bySerial}`,
      }),
    ]);

    const byLotScan = await findBy(h, token(), `(01)${GTIN}(10)${lot}`);
    expect(byLotScan.json().matched_by).toBe('gtin_and_lot');
    expect(byLotScan.json().containers.map((c: any) => c.instance_id)).toEqual([byLot]);

    const serialOnly = await findBy(h, token(), `(21)${serial}`);
    expect(serialOnly.json().matched_by).toBe('serial');
    expect(serialOnly.json().containers.map((c: any) => c.instance_id)).toEqual([bySerial]);

    // Another product's GTIN with the same serial, or the same GTIN with another serial: nothing.
    expect((await findBy(h, token(), `(01)${OTHER_GTIN}(21)${serial}`)).json().containers).toEqual([]);
    expect((await findBy(h, token(), `(01)${GTIN}(21)${serial}X`)).json().containers).toEqual([]);
  });

  it('an archived container is still found, after the active ones, marked archived', async () => {
    const itemId = await freshItem(h);
    const lot = `A${Date.now().toString(36)}`.toUpperCase();
    const old = await addedInstance(h, token(), itemId, { quantity: '1', lot_number: lot, identifiers: { gtin: GTIN } });
    const fresh = await addedInstance(h, token(), itemId, { quantity: '1', lot_number: lot, identifiers: { gtin: GTIN } });
    const archived = await h.call(token(), { method: 'POST', url: `/inventory-items/${itemId}/instances/${old}/archive` });
    expect(archived.statusCode, archived.body).toBe(200);
    const found = (await findBy(h, token(), `(01)${GTIN}(10)${lot}`)).json();
    expect(found.containers.map((c: any) => [c.instance_id, c.archived])).toEqual([
      [fresh, false],
      [old, true],
    ]);
    expect((await getIds(h, token(), itemId, old)).json().gtin).toBe(GTIN);
  });

  it("deleting the item deletes its containers' identifiers with them", async () => {
    const itemId = await freshItem(h);
    await addedInstance(h, token(), itemId, { quantity: '1', identifiers: { gtin: GTIN, serial_number: 'SN-GONE' } });
    const before = await identifierRows(h);
    const deleted = await h.call(h.a.admin.token, { method: 'DELETE', url: `/inventory-items/${itemId}` });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await identifierRows(h)).toBe(before - 1);
    expect((await findBy(h, token(), `(01)${GTIN}(21)SN-GONE`)).json().containers).toEqual([]);
  });
});
