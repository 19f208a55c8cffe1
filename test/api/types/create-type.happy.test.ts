// POST /types {lab_id, name}: docs/product.md §5 (types create) and §7 (type.created, data.type with lab).

import { describe, expect, it } from 'vitest';
import { eventsOfType, expectEnvelope } from '../../helpers/events.js';
import { createOrder, orderBody } from '../../helpers/orders.js';
import { expectLabShape, keysOf, labJson, UUID_RE } from '../../helpers/shapes.js';
import { typeFixture } from '../../helpers/types.js';
import { useHarness } from '../../helpers/use-harness.js';
import { legacyLabManager } from './_managers.js';

const h = useHarness();
const { post, createdEventsFor } = typeFixture(h);

describe('POST /types (happy)', () => {
  it('201 with {id, name, lab}, a Location header, and the type is listed', async () => {
    const res = await post(h.a.admin.token, { lab_id: h.a.legacyLab.id, name: 'Solvent' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(keysOf(body)).toEqual(['id', 'lab', 'name']);
    expect(body.id).toMatch(UUID_RE);
    expect(body).toEqual({ id: body.id, name: 'Solvent', lab: labJson(h.a.legacyLab.id, 'Legacy lab A', h.a, 'A', false) });
    expectLabShape(body.lab);
    expect(res.headers.location).toBe(`/types/${body.id}`);

    const list = await h.call(h.a.admin.token, { method: 'GET', url: `/types?lab_id=${h.a.legacyLab.id}&name=solvent` });
    expect(list.json()).toEqual([body]);
  });

  it('emits exactly one type.created whose data.type is the response, including the lab with uses_instances', async () => {
    const before = (await eventsOfType(h, 'com.labstock.type.created')).length;
    const res = await post(h.a.admin.token, { lab_id: h.a.migratedLab.id, name: 'Primary antibody' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    const all = await eventsOfType(h, 'com.labstock.type.created');
    expect(all).toHaveLength(before + 1);
    const mine = await createdEventsFor(body.id);
    expect(mine).toHaveLength(1);
    expectEnvelope(mine[0]!, 'com.labstock.type.created', 'type');
    expect(mine[0]!.event.data.type).toEqual(body);
    expect(mine[0]!.event.data.type.lab).toEqual(labJson(h.a.migratedLab.id, 'Migrated lab A', h.a, 'A', true));
    expect(mine[0]!.row.lab_id).toBe(h.a.migratedLab.id);
    expect(mine[0]!.row.organization_id).toBe(h.a.orgId);
  });

  it("a lab's manager (not an org admin) creates a type in their lab", async () => {
    const manager = await legacyLabManager(h);
    const res = await post(manager.token, { lab_id: h.a.legacyLab.id, name: 'Consumable' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().lab.id).toBe(h.a.legacyLab.id);
    expect(await createdEventsFor(res.json().id)).toHaveLength(1);
  });

  it('names are unique per lab only: "Reagent" exists in the legacy lab and can be created in the migrated lab', async () => {
    const res = await post(h.a.admin.token, { lab_id: h.a.migratedLab.id, name: 'Reagent' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().name).toBe('Reagent');
  });

  it('surrounding whitespace is trimmed from the name', async () => {
    const res = await post(h.a.admin.token, { lab_id: h.a.otherLab.id, name: '  Plasticware  ' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().name).toBe('Plasticware');
    expect((await createdEventsFor(res.json().id))[0]!.event.data.type.name).toBe('Plasticware');
  });

  it('the new type can be used right away by an order request of its lab', async () => {
    const type = (await post(h.a.admin.token, { lab_id: h.a.legacyLab.id, name: 'Glassware' })).json();
    const order = await createOrder(h, h.a.admin.token, orderBody({ id: h.a.legacyLab.id, typeId: type.id }));
    expect(order.type).toEqual({ id: type.id, name: 'Glassware' });
  });

  it('Idempotency-Key: a retried create replays the first 201 and creates one type and one event', async () => {
    const send = () =>
      post(h.a.admin.token, { lab_id: h.a.legacyLab.id, name: 'Retried type' }, { headers: { 'idempotency-key': 'type-retry-1' } });
    const first = await send();
    expect(first.statusCode, first.body).toBe(201);
    const second = await send();
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json()).toEqual(first.json());
    const list = await h.call(h.a.admin.token, { method: 'GET', url: `/types?lab_id=${h.a.legacyLab.id}&name=retried%20type` });
    expect(list.json()).toHaveLength(1);
    expect(await createdEventsFor(first.json().id)).toHaveLength(1);
  });
});
