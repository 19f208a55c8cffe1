import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, archiveInstance, expectedLegacyItem, expectedMigratedItem, expectItemShape, getItemJson } from './_helpers.js';

const h = useHarness();

const ETAG_RE = /^"[^"]+"$/;

describe('GET /inventory-items/{id} (happy)', () => {
  it('legacy item: exact contract shape, with a strong ETag', async () => {
    const res = await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${h.a.legacyLab.itemId}` });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
    expect(res.headers.etag).toMatch(ETAG_RE);
    expectItemShape(res.json());
    expect(res.json()).toEqual(expectedLegacyItem(h.a, 'A', h.config.appUrl));
  });

  it('migrated item: exact contract shape, parent legacy fields null, quantity "0.3" = 0.1 + 0.2', async () => {
    const res = await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${h.a.migratedLab.itemId}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toMatch(ETAG_RE);
    expectItemShape(res.json());
    expect(res.json()).toEqual(expectedMigratedItem(h.a, 'A', h.config.appUrl));
    expect(res.json().lab.uses_instances).toBe(true);
  });

  it('equals the item as listed', async () => {
    const res = await h.call(h.a.admin.token, { method: 'GET', url: '/inventory-items' });
    expect(res.statusCode).toBe(200);
    const listed = res.json();
    // The seeded items are listed, so the comparison below runs at least for a legacy and a migrated item.
    expect(listed.map((i: { id: string }) => i.id)).toEqual(expect.arrayContaining([h.a.legacyLab.itemId, h.a.migratedLab.itemId]));
    for (const item of listed) expect((await getItemJson(h, h.a.admin.token, item.id)).body).toEqual(item);
  });

  it('a member of the lab can read it; the ETag is the same on every read of an unchanged item', async () => {
    const one = await getItemJson(h, h.a.member.token, h.a.migratedLab.itemId);
    const two = await getItemJson(h, h.a.admin.token, h.a.migratedLab.itemId);
    expect(one.status).toBe(200);
    expect(one.etag).toBeDefined();
    expect(one.etag).toBe(two.etag);
    expect(one.body).toEqual(two.body);
  });

  it('the ETag changes when the item changes and matches the ETag the update returned', async () => {
    const before = await getItemJson(h, h.a.admin.token, h.a.legacyLab.itemId);
    const put = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/inventory-items/${h.a.legacyLab.itemId}`,
      payload: { quantity: '4' },
    });
    expect(put.statusCode).toBe(200);
    const after = await getItemJson(h, h.a.admin.token, h.a.legacyLab.itemId);
    expect(after.etag).not.toBe(before.etag);
    expect(after.etag).toBe(put.headers.etag);
    expect(after.body.quantity).toBe('4');
  });

  it('lists only active instances and sums only those', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.migratedLab.id, name: 'Plasmid', typeId: h.a.migratedLab.typeId }, [
      { quantity: '1.5' },
      { quantity: '2.25', lotNumber: 'L2', locationId: h.a.migratedLab.locationIds[1] },
      { quantity: '100' },
    ]);
    const [a, b, c] = item.instances;
    expect(item.quantity).toBe('103.75');
    await archiveInstance(h, c!.id);
    const res = await getItemJson(h, h.a.admin.token, item.id);
    expect(res.body.quantity).toBe('3.75');
    expect(res.body.instances.map((i: any) => i.id)).toEqual([a!.id, b!.id]);
    expect(res.body.instances[1]).toEqual({
      id: b!.id,
      quantity: '2.25',
      lot_number: 'L2',
      expiration_date: null,
      location: { name: 'Freezer A', pathNames: ['Room 101', 'Freezer A'] },
    });
    expectItemShape(res.body);
  });

  it('a migrated item with no instances has instances [] and quantity "0"', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.migratedLab.id, name: 'Empty box', quantity: '5', lotNumber: 'IGNORED' });
    const res = await getItemJson(h, h.a.member.token, item.id);
    expect(res.status).toBe(200);
    expect(res.body.instances).toEqual([]);
    expect(res.body.quantity).toBe('0');
    expect(res.body.lot_number).toBeNull();
    expect(res.body.type).toBeNull();
    expectItemShape(res.body);
  });

  it('sums with exact decimal arithmetic, never binary floating point', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.migratedLab.id, name: 'Precise' }, [
      { quantity: '12345678901234567890.1234567891' },
      { quantity: '0.0000000009' },
      { quantity: '0.7' },
      { quantity: '0.1' },
    ]);
    const res = await getItemJson(h, h.a.admin.token, item.id);
    expect(res.body.quantity).toBe('12345678901234567890.92345679');
    expect(res.body.instances.map((i: any) => i.quantity)).toEqual(['12345678901234567890.1234567891', '0.0000000009', '0.7', '0.1']);
  });

  it('accepts the Bearer header', async () => {
    const res = await h.call(null, {
      method: 'GET',
      url: `/inventory-items/${h.b.legacyLab.itemId}`,
      headers: { authorization: `Bearer ${h.b.member.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(expectedLegacyItem(h.b, 'B', h.config.appUrl));
  });
});
