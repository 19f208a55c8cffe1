import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import {
  addItem,
  archiveInstance,
  dbState,
  eventsAfter,
  expectedMigratedItem,
  expectItemShape,
  getItemJson,
  memberSummary,
  UUID_RE,
} from './_helpers.js';

const h = useHarness();

const putInstance = (
  token: string,
  instanceId: string,
  payload: unknown,
  headers: Record<string, string> = {},
  itemId = h.a.migratedLab.itemId,
) => h.call(token, { method: 'PUT', url: `/inventory-items/${itemId}/instances/${instanceId}`, payload: payload as any, headers });

const first = () => h.a.migratedLab.instanceIds[0]!;
const second = () => h.a.migratedLab.instanceIds[1]!;

describe('PUT /inventory-items/{itemId}/instances/{itemInstanceId} (happy)', () => {
  it('sets the instance quantity and returns the full parent item: "0.25" + "0.2" = "0.45"', async () => {
    const before = await getItemJson(h, h.a.admin.token, h.a.migratedLab.itemId);
    expect(before.body.quantity).toBe('0.3');
    const state = await dbState(h);
    const res = await putInstance(h.a.admin.token, first(), { quantity: '0.25' });
    expect(res.statusCode, res.body).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
    const body = res.json();
    expectItemShape(body);
    const expected = expectedMigratedItem(h.a, 'A', h.config.appUrl);
    expect(body).toEqual({
      ...expected,
      quantity: '0.45',
      instances: [{ ...expected.instances[0], quantity: '0.25' }, expected.instances[1]],
    });
    expect(body.lot_number).toBeNull();
    expect(body.expiration_date).toBeNull();
    expect(body.location).toBeNull();
    expect(body.sublocation).toBeNull();
    expect(res.headers.etag).toMatch(/^"[^"]+"$/);
    expect(res.headers.etag).not.toBe(before.etag);
    const after = await getItemJson(h, h.a.admin.token, h.a.migratedLab.itemId);
    expect(after.body).toEqual(body);
    expect(after.etag).toBe(res.headers.etag);

    const events = await eventsAfter(h, state.events);
    expect(events).toHaveLength(1);
    const { event, type, organization_id, lab_id } = events[0]!;
    expect(type).toBe('com.labstock.inventory-item.updated');
    expect(organization_id).toBe(h.a.orgId);
    expect(lab_id).toBe(h.a.migratedLab.id);
    expect(event).toMatchObject({
      specversion: '1.0',
      source: 'https://labstock.test',
      type: 'com.labstock.inventory-item.updated',
      datacontenttype: 'application/json',
    });
    expect(event.id).toMatch(UUID_RE);
    expect(event.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Object.keys(event.data)).toEqual(['inventory_item']);
    expect(event.data.inventory_item).toEqual(body);
    expect(event.data.inventory_item.lab.uses_instances).toBe(true);

    // The fixture's own instance.added row aside, this update is the item's only change.
    const changes = await h.deps.db
      .selectFrom('inventory_item_changes')
      .selectAll()
      .where('item_id', '=', h.a.migratedLab.itemId)
      .where('field', '!=', 'instance.added')
      .execute();
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ instance_id: first(), user_id: h.a.admin.id, old_value: '0.1', new_value: '0.25' });
    expect(changes[0]!.field).toMatch(/quantity/);
  });

  it('the instance row itself holds the new quantity; the other instance is untouched', async () => {
    const rows = await h.deps.db
      .selectFrom('inventory_item_instances')
      .select(['id', 'quantity', 'archived_at'])
      .where('item_id', '=', h.a.migratedLab.itemId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: first(), quantity: '0.25', archived_at: null },
      { id: second(), quantity: '0.2', archived_at: null },
    ]);
  });

  it('setting the same quantity again changes nothing and emits no event', async () => {
    const before = await getItemJson(h, h.a.admin.token, h.a.migratedLab.itemId);
    const state = await dbState(h);
    const res = await putInstance(h.a.admin.token, first(), { quantity: '0.25' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(before.body);
    expect(res.headers.etag).toBe(before.etag);
    expect(await dbState(h)).toEqual(state);
  });

  it('a member of the lab can update it and becomes updated_by', async () => {
    const res = await putInstance(h.a.member.token, second(), { quantity: '0.7' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().quantity).toBe('0.95');
    expect(res.json().updated_by).toEqual(memberSummary(h.a, 'A'));
    expect(res.json().instances.map((i: any) => i.quantity)).toEqual(['0.25', '0.7']);
  });

  it('If-Match with the current ETag succeeds; "*" succeeds', async () => {
    const { etag } = await getItemJson(h, h.a.admin.token, h.a.migratedLab.itemId);
    const res = await putInstance(h.a.admin.token, first(), { quantity: '0.1' }, { 'if-match': etag! });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.etag).not.toBe(etag);
    const star = await putInstance(h.a.admin.token, second(), { quantity: '0.2' }, { 'if-match': '*' });
    expect(star.statusCode, star.body).toBe(200);
    expect(star.json().quantity).toBe('0.3');
  });

  it('exact decimal sums: "0" and long values', async () => {
    let res = await putInstance(h.a.admin.token, first(), { quantity: '0' });
    expect(res.json().quantity).toBe('0.2');
    res = await putInstance(h.a.admin.token, first(), { quantity: '99999999999999999999.9999999999' });
    expect(res.json().quantity).toBe('100000000000000000000.1999999999');
    res = await putInstance(h.a.admin.token, first(), { quantity: '0.10' });
    expect(res.json().quantity).toBe('0.3');
    expect(res.json().instances[0].quantity).toBe('0.10');
    res = await putInstance(h.a.admin.token, first(), { quantity: '0.1' });
    expect(res.json().quantity).toBe('0.3');
    expect(res.json().instances[0].quantity).toBe('0.1');
  });

  it('archived instances stay out of the response and the sum', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.migratedLab.id, name: 'Aliquots' }, [
      { quantity: '1' },
      { quantity: '2' },
      { quantity: '4' },
    ]);
    const [x, y, z] = item.instances;
    await archiveInstance(h, z!.id);
    const res = await putInstance(h.a.admin.token, x!.id, { quantity: '1.5' }, {}, item.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().quantity).toBe('3.5');
    expect(res.json().instances.map((i: any) => i.id)).toEqual([x!.id, y!.id]);
  });

  it('concurrent updates of two instances both apply and the parent is the exact sum', async () => {
    const state = await dbState(h);
    const [r1, r2] = await Promise.all([
      putInstance(h.a.admin.token, first(), { quantity: '1.1' }),
      putInstance(h.a.member.token, second(), { quantity: '2.2' }),
    ]);
    expect(r1!.statusCode, r1!.body).toBe(200);
    expect(r2!.statusCode, r2!.body).toBe(200);
    const after = await getItemJson(h, h.a.admin.token, h.a.migratedLab.itemId);
    expect(after.body.quantity).toBe('3.3');
    expect(after.body.instances.map((i: any) => i.quantity)).toEqual(['1.1', '2.2']);
    const events = await eventsAfter(h, state.events);
    expect(events).toHaveLength(2);
    // The last event written describes the final state.
    expect(events.map((e) => e.event.data.inventory_item.quantity)).toContain('3.3');
  });

  it('the instance operation is not marked deprecated', async () => {
    const res = await putInstance(h.a.admin.token, first(), { quantity: '1.1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers.deprecation).toBeUndefined();
  });

  it('accepts the Bearer header', async () => {
    const res = await h.call(null, {
      method: 'PUT',
      url: `/inventory-items/${h.b.migratedLab.itemId}/instances/${h.b.migratedLab.instanceIds[1]}`,
      payload: { quantity: '0.15' },
      headers: { authorization: `Bearer ${h.b.member.token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().quantity).toBe('0.25');
  });
});
