// Put-away (docs/product.md §14, docs/api.md "Put-away"): goods received without a lot, expiry or location are
// listed for their lab until filled in or confirmed; GET /put-away, GET /labs/{id}/put-away, POST …/put-away.

import { afterEach, describe, expect, it } from 'vitest';
import { eventMark, eventsSince, shortTypesSince } from '../../helpers/events.js';
import { expectHoldingsTrue } from '../../helpers/holdings.js';
import { useHarness } from '../../helpers/use-harness.js';
import { idsOf, listLab, putAway, receive } from './_put-away.js';

const h = useHarness();
// Whatever the writes did, the control-area totals still add up to the containers (src/hazards/holdings-repository.ts).
afterEach(() => expectHoldingsTrue(h.deps.db));

const lab = () => h.a.migratedLab;
const item = (token: string, id: string) => h.call(token, { method: 'GET', url: `/inventory-items/${id}` });
const history = async (id: string) => (await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${id}/history` })).json();

describe('put-away (happy)', () => {
  it('a receipt without lot, expiry or location is listed, with the item, the lab and when it arrived; a complete one is not', async () => {
    const bare = await receive(h, h.a.member.token, lab());
    const full = await receive(h, h.a.member.token, lab(), {
      lot_number: 'L1',
      expiration_date: '2028-01-01',
      location_id: lab().locationIds[1],
    });
    const res = await listLab(h, h.a.member.token, lab().id);
    expect(res.statusCode, res.body).toBe(200);
    expect(idsOf(res)).toContain(bare.instanceId);
    expect(idsOf(res)).not.toContain(full.instanceId);
    const row = res.json().find((r: any) => r.instance_id === bare.instanceId);
    expect(row).toMatchObject({
      item_id: bare.itemId,
      item_name: bare.order.item_name,
      vendor: bare.order.vendor_name,
      catalog_number: bare.order.catalog_number,
      quantity: '2',
      lot_number: null,
      expiration_date: null,
      location_id: null,
      location: null,
      lab: { id: lab().id, name: expect.any(String) },
      app_url: `http://labstock.test/app/inventory/items/${bare.itemId}`,
    });
    expect(Date.parse(row.arrived_at)).not.toBeNaN();
    expect(Number(res.headers['x-total-count'])).toBe(res.json().length);
    // Every lab the caller sees: the same row.
    const all = await h.call(h.a.member.token, { method: 'GET', url: '/put-away' });
    expect(idsOf(all)).toContain(bare.instanceId);
    const byLab = await h.call(h.a.member.token, { method: 'GET', url: `/put-away?lab_id=${lab().id}` });
    expect(idsOf(byLab)).toEqual(idsOf(res));
  });

  it('a partial receipt (a lot only) is listed with its lot; the location, expiry and the rest filled by PATCH take it off', async () => {
    const r = await receive(h, h.a.admin.token, lab(), { lot_number: 'ONLY-LOT' });
    const row = (await listLab(h, h.a.admin.token, lab().id)).json().find((x: any) => x.instance_id === r.instanceId);
    expect(row.lot_number).toBe('ONLY-LOT');
    const url = `/inventory-items/${r.itemId}/instances/${r.instanceId}`;
    const first = await h.call(h.a.admin.token, { method: 'PATCH', url, payload: { location_id: lab().locationIds[0] } });
    expect(first.statusCode, first.body).toBe(200);
    const still = await listLab(h, h.a.admin.token, lab().id);
    expect(still.json().find((x: any) => x.instance_id === r.instanceId).location).toMatchObject({ pathNames: expect.any(Array) });
    const second = await h.call(h.a.admin.token, { method: 'PATCH', url, payload: { expiration_date: '2029-02-03' } });
    expect(second.statusCode, second.body).toBe(200);
    expect(idsOf(await listLab(h, h.a.admin.token, lab().id))).not.toContain(r.instanceId);
    expect((await history(r.itemId)).map((c: any) => c.field)).toContain('instance.put_away');
  });

  it('POST …/put-away fills lot, expiry and location in one step: the item changes once, one inventory-item.updated', async () => {
    const r = await receive(h, h.a.member.token, lab());
    const before = await item(h.a.member.token, r.itemId);
    const mark = await eventMark(h);
    const res = await putAway(
      h,
      h.a.member.token,
      r.itemId,
      r.instanceId,
      { lot_number: 'GR3323', expiration_date: '2027-12-31', location_id: lab().locationIds[2] },
      { 'if-match': before.headers.etag as string },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.etag).not.toBe(before.headers.etag);
    const inst = res.json().instances.find((i: any) => i.id === r.instanceId);
    expect(inst).toMatchObject({ lot_number: 'GR3323', expiration_date: '2027-12-31', location: { pathNames: expect.any(Array) } });
    expect(await shortTypesSince(h, mark)).toEqual(['inventory-item.updated']);
    const [event] = await eventsSince(h, mark);
    expect((event!.event.data as any).inventory_item.instances.find((i: any) => i.id === r.instanceId).lot_number).toBe('GR3323');
    expect(idsOf(await listLab(h, h.a.member.token, lab().id))).not.toContain(r.instanceId);
    const fields = (await history(r.itemId)).filter((c: any) => c.instance_id === r.instanceId).map((c: any) => c.field);
    expect(fields).toEqual(
      expect.arrayContaining(['instance.lot_number', 'instance.expiration_date', 'instance.location_id', 'instance.put_away']),
    );
  });

  it('POST …/put-away {} confirms there is nothing to fill in: off the list, a history line, no new version and no event', async () => {
    const r = await receive(h, h.a.member.token, lab());
    const before = await item(h.a.member.token, r.itemId);
    const mark = await eventMark(h);
    const res = await putAway(h, h.a.member.token, r.itemId, r.instanceId, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.etag).toBe(before.headers.etag);
    expect(await eventsSince(h, mark)).toEqual([]);
    expect(idsOf(await listLab(h, h.a.member.token, lab().id))).not.toContain(r.instanceId);
    const last = (await history(r.itemId)).filter((c: any) => c.field === 'instance.put_away');
    expect(last).toHaveLength(1);
    // Again: nothing is due any more, nothing changes.
    const again = await putAway(h, h.a.member.token, r.itemId, r.instanceId, {});
    expect(again.statusCode).toBe(200);
    expect((await history(r.itemId)).filter((c: any) => c.field === 'instance.put_away')).toHaveLength(1);
  });

  it('archiving takes it off the list and keeps the reason in the history; instances added by hand are never listed', async () => {
    const r = await receive(h, h.a.admin.token, lab());
    const res = await h.call(h.a.admin.token, {
      method: 'POST',
      url: `/inventory-items/${r.itemId}/instances/${r.instanceId}/archive`,
      payload: { reason: 'arrived broken' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(idsOf(await listLab(h, h.a.admin.token, lab().id))).not.toContain(r.instanceId);
    const archived = (await history(r.itemId)).find((c: any) => c.field === 'instance.archived');
    expect(archived.note).toBe('arrived broken');
    const added = await h.call(h.a.admin.token, {
      method: 'POST',
      url: `/inventory-items/${r.itemId}/instances`,
      payload: { quantity: '1' },
    });
    expect(added.statusCode, added.body).toBe(201);
    const newId = added.json().instances.at(-1).id;
    expect(idsOf(await listLab(h, h.a.admin.token, lab().id))).not.toContain(newId);
  });

  it('pages like every list: per_page, X-Total-Count and Link; past the end []', async () => {
    await receive(h, h.a.admin.token, lab());
    await receive(h, h.a.admin.token, lab());
    const all = await listLab(h, h.a.admin.token, lab().id, '?per_page=100');
    const total = all.json().length;
    expect(total).toBeGreaterThanOrEqual(2);
    const first = await listLab(h, h.a.admin.token, lab().id, '?per_page=1');
    expect(first.json()).toHaveLength(1);
    expect(Number(first.headers['x-total-count'])).toBe(total);
    expect(first.headers.link).toContain('rel="next"');
    expect(idsOf(first)).toEqual(idsOf(all).slice(0, 1));
    const second = await listLab(h, h.a.admin.token, lab().id, '?per_page=1&page=2');
    expect(idsOf(second)).toEqual(idsOf(all).slice(1, 2));
    expect((await listLab(h, h.a.admin.token, lab().id, `?page=${total + 1}`)).json()).toEqual([]);
    // A legacy lab has nothing to put away: its receipts grow the item's quantity.
    expect((await listLab(h, h.a.admin.token, h.a.legacyLab.id)).json()).toEqual([]);
  });
});
