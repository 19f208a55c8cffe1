// GET /hazards/inventory-items?ids=: the pictograms of a page of items, for the inventory list (docs/hazards.md).
import { describe, expect, it } from 'vitest';
import { addItem } from '../../helpers/data.js';
import { useHarness } from '../../helpers/use-harness.js';
import { hazardsFixture } from './_hazards.js';

const h = useHarness();
const f = hazardsFixture(h);

describe('item hazard summaries (happy)', () => {
  it("each item's pictograms, signal word and classes, own or inherited, in the order asked", async () => {
    const lab = h.a.legacyLab;
    await f.putType(h.a.admin.token, lab.typeId, ['H260', 'H314']);
    const own = await addItem(h, h.a.admin.actor, { labId: lab.id, name: 'Ethanol', quantity: '1' });
    await f.putItem(h.a.admin.token, own.id, ['H225', 'H319']);
    const inherits = await addItem(h, h.a.admin.actor, { labId: lab.id, name: 'Sodium', typeId: lab.typeId, quantity: '1' });
    const plain = await addItem(h, h.a.admin.actor, { labId: lab.id, name: 'Water', quantity: '1' });
    const res = await f.summaries(h.a.member.token, [plain.id, own.id, inherits.id, own.id]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([
      { item_id: plain.id, pictograms: [], signal_word: null, class_ids: [] },
      { item_id: own.id, pictograms: ['GHS02', 'GHS07'], signal_word: 'Danger', class_ids: ['flammable-liquid', 'eye-irritation'] },
      { item_id: inherits.id, pictograms: ['GHS02', 'GHS05'], signal_word: 'Danger', class_ids: ['water-reactive', 'skin-corrosion'] },
    ]);
  });
});
