// GET and PUT /inventory-items/{id}/hazards (docs/hazards.md): the statements an item shows (its own, else its
// type's), classified; setting them is an edit of the item (new ETag, history, one inventory-item.updated carrying
// the item as the contract shows it, without hazards).
import { describe, expect, it } from 'vitest';
import { addItem, getItemJson } from '../../helpers/data.js';
import { eventsAfter } from '../../helpers/events.js';
import { useHarness } from '../../helpers/use-harness.js';
import { hazardsFixture } from './_hazards.js';

const h = useHarness();
const f = hazardsFixture(h);

describe('item hazards (happy)', () => {
  it('an item with nothing recorded shows none, with its ETag', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Water', quantity: '1' });
    const res = await f.getItem(h.a.member.token, item.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      item_id: item.id,
      source: 'none',
      own_statements: null,
      type_statements: [],
      statements: [],
      classes: [],
      pictograms: [],
      signal_word: null,
      updated_by: null,
      updated_at: null,
    });
    expect(res.headers.etag).toBe((await getItemJson(h, h.a.member.token, item.id)).etag);
  });

  it('a member sets them: classified, a new ETag, one line of history, one event with the contract item', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Ethanol absolute', quantity: '2' });
    const before = await getItemJson(h, h.a.member.token, item.id);
    const eventsBefore = (await f.state()).events;
    const res = await f.putItem(h.a.member.token, item.id, ['h319', 'H225'], { 'if-match': before.etag! });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      item_id: item.id,
      source: 'item',
      own_statements: ['H225', 'H319'],
      statements: [
        { code: 'H225', text: 'Highly flammable liquid and vapour' },
        { code: 'H319', text: 'Causes serious eye irritation' },
      ],
      classes: [
        { id: 'flammable-liquid', name: 'Flammable liquid', category: '2', categories: ['2'] },
        { id: 'eye-irritation', name: 'Eye irritation', category: '2', categories: ['2', '2A'] },
      ],
      pictograms: ['GHS02', 'GHS07'],
      signal_word: 'Danger',
      updated_by: { id: h.a.member.id },
    });
    expect(res.headers.etag).not.toBe(before.etag);
    const after = await getItemJson(h, h.a.member.token, item.id);
    expect(after.etag).toBe(res.headers.etag);
    expect(after.body).toEqual({ ...before.body, updated_by: after.body.updated_by });
    expect(JSON.stringify(after.body)).not.toContain('H225');

    const events = await eventsAfter(h, eventsBefore);
    expect(events.map((e) => e.event.type)).toEqual(['com.labstock.inventory-item.updated']);
    expect(events[0]!.event.data.inventory_item).toEqual(after.body);

    const history = (await h.call(h.a.member.token, { method: 'GET', url: `/inventory-items/${item.id}/history` })).json();
    expect(history.at(-1)).toMatchObject({ field: 'hazard_statements', old_value: null, new_value: 'H225 H319' });
    expect((await f.getItem(h.a.admin.token, item.id)).json()).toEqual(body);
  });

  it("inherits its type's; [] overrides them with none; null inherits again", async () => {
    const typeId = h.a.legacyLab.typeId;
    expect((await f.putType(h.a.admin.token, typeId, ['H290', 'H314'])).statusCode).toBe(200);
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Sulfuric acid 96 %', typeId, quantity: '1' });
    const inherited = (await f.getItem(h.a.member.token, item.id)).json();
    expect(inherited).toMatchObject({
      source: 'type',
      own_statements: null,
      type_statements: ['H290', 'H314'],
      pictograms: ['GHS05'],
      signal_word: 'Danger',
      updated_by: { id: h.a.admin.id },
    });
    const none = (await f.putItem(h.a.member.token, item.id, [])).json();
    expect(none).toMatchObject({ source: 'item', own_statements: [], type_statements: ['H290', 'H314'], statements: [], pictograms: [] });
    const again = (await f.putItem(h.a.member.token, item.id, null)).json();
    expect(again).toMatchObject({ source: 'type', own_statements: null, pictograms: ['GHS05'] });
    const history = (await h.call(h.a.member.token, { method: 'GET', url: `/inventory-items/${item.id}/history` })).json();
    expect(history.filter((c: any) => c.field === 'hazard_statements').map((c: any) => [c.old_value, c.new_value])).toEqual([
      [null, ''],
      ['', null],
    ]);
    await f.putType(h.a.admin.token, typeId, []);
  });

  it('setting what it has changes nothing: same ETag, no event, no history', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Sodium', quantity: '1' });
    const first = await f.putItem(h.a.admin.token, item.id, ['H260', 'H314']);
    const again = await f.unchanged(() => f.putItem(h.a.admin.token, item.id, ['H314', 'h260', 'H260']));
    expect(again.statusCode).toBe(200);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.json()).toEqual(first.json());
  });

  it('combined and CLP statements are kept as entered, classified as their parts', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.migratedLab.id, name: 'Methanol' });
    const res = await f.putItem(h.a.member.token, item.id, ['H225', 'H301 + H311 + H331', 'H370', 'H360Fd']);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().own_statements).toEqual(['H225', 'H360Fd', 'H370', 'H301+H311+H331']);
    expect(res.json().pictograms).toEqual(['GHS02', 'GHS06', 'GHS08']);
  });
});
