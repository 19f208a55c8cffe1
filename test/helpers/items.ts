// The inventory-item tests' shared setup (test/api/inventory-items/): requests that must change nothing, the history
// rows of an item, a migrated item with two instances, a change checked against GET and its one event, and the
// instance endpoints. `const { … } = itemFixture(h)` beside `const h = useHarness()` (test/helpers/use-harness.ts).

import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { createLab } from '../../src/labs/service.js';
import { addItem, dbState, getItemJson } from './data.js';
import { eventsAfter } from './events.js';
import type { Harness } from './harness.js';
import { expectItemShape } from './shapes.js';

type Headers = Record<string, string>;

export const itemUrl = (itemId: string) => `/inventory-items/${itemId}`;
export const instancesUrl = (itemId: string) => `/inventory-items/${itemId}/instances`;
export const instanceUrl = (itemId: string, instanceId: string) => `/inventory-items/${itemId}/instances/${instanceId}`;

export function itemFixture(h: Harness) {
  /** Sends the request and checks that it left untouched everything a failed request must (dbState). */
  async function unchangedBy<R>(send: () => Promise<R>): Promise<R> {
    const before = await dbState(h);
    const res = await send();
    expect(await dbState(h)).toEqual(before);
    return res;
  }

  /** Runs a change and checks: status, full item = GET, new ETag = GET's, exactly one inventory-item.updated = body. */
  async function expectChange(send: () => Promise<LightMyRequestResponse>, itemId: string, status: number): Promise<any> {
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

  /** Deletes and checks: 204, gone everywhere (row, instances, history), and exactly one deleted event = last state. */
  async function expectDeleted(token: string, id: string, headers: Headers = {}): Promise<any> {
    const last = await getItemJson(h, h.a.admin.token, id);
    expect(last.status).toBe(200);
    const eventsBefore = (await dbState(h)).events;
    const res = await deleteItem(token, id, headers);
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');
    expect((await getItemJson(h, h.a.admin.token, id)).status).toBe(404);
    const db = h.deps.db;
    expect(await db.selectFrom('inventory_items').select('id').where('id', '=', id).execute()).toEqual([]);
    expect(await db.selectFrom('inventory_item_instances').select('id').where('item_id', '=', id).execute()).toEqual([]);
    expect(await db.selectFrom('inventory_item_changes').select('id').where('item_id', '=', id).execute()).toEqual([]);
    const events = await eventsAfter(h, eventsBefore);
    expect(events.map((e) => e.type)).toEqual(['com.labstock.inventory-item.deleted']);
    const e = events[0]!;
    expect(e.event).toMatchObject({ specversion: '1.0', id: e.id, source: 'https://labstock.test', datacontenttype: 'application/json' });
    expect(e.event.data).toEqual({ inventory_item: last.body });
    expect(e.lab_id).toBe(last.body.lab.id);
    expect(e.organization_id).toBe(last.body.lab.organization.id);
    return e.event.data.inventory_item;
  }

  /** A migrated item with instances "1.25" (at Shelf 2, lot A) and "0.75". */
  async function migratedItem(name = 'Vials') {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.migratedLab.id, name }, [
      { quantity: '1.25', lotNumber: 'A', expirationDate: '2027-03-01', locationId: h.a.migratedLab.locationIds[2] },
      { quantity: '0.75' },
    ]);
    return { id: item.id, instanceIds: item.instances.map((i) => i.id) };
  }

  const edit = (token: string | null, itemId: string, instanceId: string, payload: unknown, headers: Headers = {}) =>
    h.call(token, { method: 'PATCH', url: instanceUrl(itemId, instanceId), payload: payload as any, headers });

  const deleteItem = (token: string | null, id: string, headers: Headers = {}) =>
    h.call(token, { method: 'DELETE', url: itemUrl(id), headers });

  return {
    unchangedBy,
    deleteItem,
    expectDeleted,
    patchItem: (token: string | null, id: string, payload: unknown, headers: Headers = {}, extra: Partial<InjectOptions> = {}) =>
      h.call(token, { method: 'PATCH', url: itemUrl(id), payload: payload as any, headers, ...extra }),
    /** A fresh legacy item with every field set, so tests do not depend on each other. */
    editableItem: (name = 'Editable') =>
      addItem(h, h.a.admin.actor, {
        labId: h.a.legacyLab.id,
        name,
        typeId: h.a.legacyLab.typeId,
        vendor: 'Sigma',
        catalogNumber: 'S-1',
        price: '10.00',
        quantity: '4',
        lotNumber: 'L-1',
        expirationDate: '2027-01-01',
        locationName: 'Cabinet 1',
        sublocationName: 'Shelf A',
      }),
    unchanged: (token: string | null, opts: InjectOptions) => unchangedBy(() => h.call(token, opts)),
    expectChange,
    /** The item's history rows, oldest first. */
    changesOf: (itemId: string) =>
      h.deps.db
        .selectFrom('inventory_item_changes')
        .selectAll()
        .where('item_id', '=', itemId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    migratedItem,
    /** A migrated item (migratedItem) edited since `headers`' If-Match was read: a request with them is stale (412). */
    async staleItem() {
      const item = await migratedItem();
      const { etag } = await getItemJson(h, h.a.admin.token, item.id);
      expect((await edit(h.a.admin.token, item.id, item.instanceIds[0]!, { lot_number: 'moved on' })).statusCode).toBe(200);
      return { item, headers: { 'if-match': etag! } };
    },
    /**
     * Items org A's member cannot see: one with an instance in a migrated lab of org A they are not in, and one of
     * org A's lab they do not belong to (legacy).
     */
    async hiddenItems() {
      const lab = await createLab(h.deps.db, h.a.admin.actor, {
        organizationId: h.a.orgId,
        name: 'Hidden migrated lab',
        usesInstances: true,
      });
      const hidden = await addItem(h, h.a.admin.actor, { labId: lab.id, name: 'Hidden' }, [{ quantity: '1' }]);
      const legacyHidden = await addItem(h, h.a.admin.actor, { labId: h.a.otherLab.id, name: 'Hidden legacy' });
      return { hidden, hiddenInstance: hidden.instances[0]!.id, legacyHidden };
    },
    add: (token: string | null, itemId: string, payload: unknown, headers: Headers = {}) =>
      h.call(token, { method: 'POST', url: instancesUrl(itemId), payload: payload as any, headers }),
    edit,
    archive: (token: string | null, itemId: string, instanceId: string, headers: Headers = {}) =>
      h.call(token, { method: 'POST', url: `${instanceUrl(itemId, instanceId)}/archive`, headers }),
  };
}
