// PUT /types/{id} {name}: docs/product.md §5 (types rename) and §7 (type.updated; same name: no event).

import { describe, expect, it } from 'vitest';
import { eventsOfType, expectEnvelope } from '../../helpers/events.js';
import { labJson } from '../../helpers/shapes.js';
import { typeFixture } from '../../helpers/types.js';
import { useHarness } from '../../helpers/use-harness.js';
import { legacyLabManager } from './_managers.js';

const h = useHarness();
const { put, newType, state, updatedEventsFor } = typeFixture(h);

describe('PUT /types/{id} (happy)', () => {
  it('200 with the new name; the list shows it; exactly one type.updated whose data.type is the response', async () => {
    const type = await newType(h.a.legacyLab.id, 'Buffers');
    const allBefore = (await eventsOfType(h, 'com.labstock.type.updated')).length;
    const res = await put(h.a.admin.token, type.id, { name: 'Buffer solutions' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({ id: type.id, name: 'Buffer solutions', lab: labJson(h.a.legacyLab.id, 'Legacy lab A', h.a, 'A', false) });

    const list = await h.call(h.a.admin.token, { method: 'GET', url: `/types?lab_id=${h.a.legacyLab.id}&name=BUFFER%20SOLUTIONS` });
    expect(list.json()).toEqual([body]);
    const old = await h.call(h.a.admin.token, { method: 'GET', url: `/types?lab_id=${h.a.legacyLab.id}&name=buffers` });
    expect(old.json()).toEqual([]);

    expect(await eventsOfType(h, 'com.labstock.type.updated')).toHaveLength(allBefore + 1);
    const events = await updatedEventsFor(type.id);
    expect(events).toHaveLength(1);
    expectEnvelope(events[0]!, 'com.labstock.type.updated', 'type');
    expect(events[0]!.event.data.type).toEqual(body);
    expect(events[0]!.event.data.type.lab.uses_instances).toBe(false);
    expect(events[0]!.row.lab_id).toBe(h.a.legacyLab.id);
    expect(events[0]!.row.organization_id).toBe(h.a.orgId);
  });

  it('items and order requests that use the type show its new name', async () => {
    const res = await put(h.a.admin.token, h.a.migratedLab.typeId, { name: 'Antibodies' });
    expect(res.statusCode, res.body).toBe(200);
    const item = await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${h.a.migratedLab.itemId}` });
    expect(item.json().type).toEqual({ id: h.a.migratedLab.typeId, name: 'Antibodies' });
    const e = await updatedEventsFor(h.a.migratedLab.typeId);
    expect(e).toHaveLength(1);
    expect(e[0]!.event.data.type.lab.uses_instances).toBe(true);
  });

  it('the same name: 200, nothing changes and no event', async () => {
    const type = await newType(h.a.otherLab.id, 'Kits');
    const before = await state();
    const res = await put(h.a.admin.token, type.id, { name: 'Kits' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(type);
    expect(await state()).toEqual(before);
    // Surrounding blanks do not make it another name.
    const padded = await put(h.a.admin.token, type.id, { name: ' Kits ' });
    expect(padded.statusCode, padded.body).toBe(200);
    expect(padded.json()).toEqual(type);
    expect(await state()).toEqual(before);
  });

  it('a change of case only is a rename (the type does not clash with itself)', async () => {
    const type = await newType(h.a.otherLab.id, 'pipette tips');
    const res = await put(h.a.admin.token, type.id, { name: 'Pipette Tips' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().name).toBe('Pipette Tips');
    expect(await updatedEventsFor(type.id)).toHaveLength(1);
  });

  it('a name used in another lab of the organization is allowed', async () => {
    // "Buffer" exists in the other lab; the legacy lab's type can take it.
    const type = await newType(h.a.legacyLab.id, 'Salts');
    const res = await put(h.a.admin.token, type.id, { name: 'Buffer' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Buffer', lab: { id: h.a.legacyLab.id } });
  });

  it("a lab's manager (not an org admin) renames a type of their lab", async () => {
    const manager = await legacyLabManager(h);
    const type = await newType(h.a.legacyLab.id, 'Media');
    const res = await put(manager.token, type.id, { name: 'Culture media' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().name).toBe('Culture media');
    expect(await updatedEventsFor(type.id)).toHaveLength(1);
  });
});
