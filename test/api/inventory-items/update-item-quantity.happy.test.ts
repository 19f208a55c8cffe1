import { describe, expect, it } from 'vitest';
import { itemFixture } from '../../helpers/items.js';
import { useHarness } from '../../helpers/use-harness.js';
import {
  adminSummary,
  dbState,
  eventsAfter,
  expectedLegacyItem,
  expectItemShape,
  getItemJson,
  memberSummary,
  UUID_RE,
} from './_helpers.js';

const h = useHarness();
const { changesOf } = itemFixture(h);

const put = (token: string, payload: unknown, headers: Record<string, string> = {}) =>
  h.call(token, { method: 'PUT', url: `/inventory-items/${h.a.legacyLab.itemId}`, payload: payload as any, headers });

describe('PUT /inventory-items/{id} in a legacy lab (happy)', () => {
  it('sets the quantity, returns the full item with a new ETag, and the change is persisted', async () => {
    const before = await getItemJson(h, h.a.admin.token, h.a.legacyLab.itemId);
    const state = await dbState(h);
    const res = await put(h.a.admin.token, { quantity: '5' });
    expect(res.statusCode, res.body).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
    const body = res.json();
    expectItemShape(body);
    expect(body).toEqual({ ...expectedLegacyItem(h.a, 'A', h.config.appUrl), quantity: '5' });
    expect(res.headers.etag).toMatch(/^"[^"]+"$/);
    expect(res.headers.etag).not.toBe(before.etag);
    const after = await getItemJson(h, h.a.admin.token, h.a.legacyLab.itemId);
    expect(after.body).toEqual(body);
    expect(after.etag).toBe(res.headers.etag);

    // Exactly one inventory-item.updated event, whose data is the response body.
    const events = await eventsAfter(h, state.events);
    expect(events).toHaveLength(1);
    const [row] = events;
    expect(row!.type).toBe('com.labstock.inventory-item.updated');
    expect(row!.organization_id).toBe(h.a.orgId);
    expect(row!.lab_id).toBe(h.a.legacyLab.id);
    const event = row!.event;
    expect(Object.keys(event).sort()).toEqual(['data', 'datacontenttype', 'id', 'source', 'specversion', 'time', 'type']);
    expect(event.specversion).toBe('1.0');
    expect(event.id).toMatch(UUID_RE);
    expect(event.id).toBe(row!.id);
    expect(event.source).toBe('https://labstock.test');
    expect(event.type).toBe('com.labstock.inventory-item.updated');
    expect(event.datacontenttype).toBe('application/json');
    expect(event.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Object.keys(event.data)).toEqual(['inventory_item']);
    expect(event.data.inventory_item).toEqual(body);
    expect(event.data.inventory_item.instances).toEqual([]);
    expect(event.data.inventory_item.lab.uses_instances).toBe(false);

    // One history row: who, what, old -> new.
    const changes = await changesOf(h.a.legacyLab.itemId);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      item_id: h.a.legacyLab.itemId,
      instance_id: null,
      user_id: h.a.admin.id,
      field: 'quantity',
      old_value: '3',
      new_value: '5',
    });
  });

  it('setting the same quantity again changes nothing and emits no event', async () => {
    const before = await getItemJson(h, h.a.admin.token, h.a.legacyLab.itemId);
    const state = await dbState(h);
    const res = await put(h.a.admin.token, { quantity: '5' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(before.body);
    expect(res.headers.etag).toBe(before.etag);
    expect(await dbState(h)).toEqual(state);
  });

  it('an empty body is accepted (quantity is optional) and changes nothing', async () => {
    const before = await getItemJson(h, h.a.admin.token, h.a.legacyLab.itemId);
    const state = await dbState(h);
    const res = await put(h.a.admin.token, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(before.body);
    expect(res.headers.etag).toBe(before.etag);
    expect(await dbState(h)).toEqual(state);
  });

  it('a member of the lab can update it and becomes updated_by (in the response and the event)', async () => {
    const state = await dbState(h);
    const res = await put(h.a.member.token, { quantity: '7.25' });
    expect(res.statusCode).toBe(200);
    expect(res.json().quantity).toBe('7.25');
    expect(res.json().updated_by).toEqual(memberSummary(h.a, 'A'));
    expect(res.json().added_by).toEqual(adminSummary(h.a, 'A'));
    const events = await eventsAfter(h, state.events);
    expect(events).toHaveLength(1);
    expect(events[0]!.event.data.inventory_item).toEqual(res.json());
    const last = (await changesOf(h.a.legacyLab.itemId)).at(-1);
    expect(last).toMatchObject({ user_id: h.a.member.id, old_value: '5', new_value: '7.25' });
  });

  it('If-Match with the current ETag succeeds and returns the next ETag', async () => {
    const { etag } = await getItemJson(h, h.a.admin.token, h.a.legacyLab.itemId);
    const res = await put(h.a.admin.token, { quantity: '8' }, { 'if-match': etag! });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().quantity).toBe('8');
    expect(res.headers.etag).not.toBe(etag);
    expect((await getItemJson(h, h.a.admin.token, h.a.legacyLab.itemId)).etag).toBe(res.headers.etag);
  });

  it('If-Match: * succeeds', async () => {
    const res = await put(h.a.admin.token, { quantity: '9' }, { 'if-match': '*' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().quantity).toBe('9');
  });

  it('If-Match with a list that contains the current ETag succeeds', async () => {
    const { etag } = await getItemJson(h, h.a.admin.token, h.a.legacyLab.itemId);
    const res = await put(h.a.admin.token, { quantity: '10' }, { 'if-match': `"nope", ${etag}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().quantity).toBe('10');
  });

  it('keeps the decimal string exactly as sent ("0", long and precise values)', async () => {
    for (const q of ['0', '12345678901234567890.0000000001', '1.50', '0.5']) {
      const res = await put(h.a.admin.token, { quantity: q });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().quantity).toBe(q);
      expect((await getItemJson(h, h.a.admin.token, h.a.legacyLab.itemId)).body.quantity).toBe(q);
    }
  });

  it('each change appends one history row and one event, in order', async () => {
    const changes = await changesOf(h.a.legacyLab.itemId);
    expect(changes.map((c) => c.new_value)).toEqual(['5', '7.25', '8', '9', '10', '0', '12345678901234567890.0000000001', '1.50', '0.5']);
    expect(changes.every((c) => c.item_id === h.a.legacyLab.itemId && c.field === 'quantity' && c.instance_id === null)).toBe(true);
    for (let i = 1; i < changes.length; i += 1) expect(changes[i]!.old_value).toBe(changes[i - 1]!.new_value);
    const events = await h.deps.db
      .selectFrom('events')
      .select(['type', 'payload'])
      .where('type', '=', 'com.labstock.inventory-item.updated')
      .where('lab_id', '=', h.a.legacyLab.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(events.map((e) => JSON.parse(e.payload).data.inventory_item.quantity)).toEqual(changes.map((c) => c.new_value));
  });

  it('marks the operation deprecated (RFC 9745 Deprecation header, since the 2026-06-17 changelog entry)', async () => {
    const res = await put(h.a.admin.token, { quantity: '0.5' });
    expect(res.statusCode).toBe(200);
    expect(res.headers.deprecation).toBe(`@${Date.UTC(2026, 5, 17) / 1000}`);
  });

  it('accepts application/json with a charset parameter', async () => {
    const res = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/inventory-items/${h.a.legacyLab.itemId}`,
      payload: JSON.stringify({ quantity: '0.75' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().quantity).toBe('0.75');
  });

  it('accepts the Bearer header', async () => {
    const res = await h.call(null, {
      method: 'PUT',
      url: `/inventory-items/${h.b.legacyLab.itemId}`,
      payload: { quantity: '2' },
      headers: { authorization: `Bearer ${h.b.admin.token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ...expectedLegacyItem(h.b, 'B', h.config.appUrl), quantity: '2' });
  });
});
