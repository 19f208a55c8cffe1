import { describe, expect, it } from 'vitest';
import { effectiveHazards, hazardClassCondition, hazardSetOf, setHazardsIn } from '../../../src/hazards/repository.js';
import { createItem } from '../../../src/inventory/items.js';
import { openCountedHandle } from '../../helpers/db-counter.js';
import { useHarness } from '../../helpers/use-harness.js';

// The storage others build on (docs/hazards.md, "For other folders"): own statements override the type's, an item
// without its own inherits, an empty own set is "no hazards"; effectiveHazards runs a bounded number of statements;
// hazardClassCondition filters a query of items by class. Real database, both engines.

const h = useHarness();

const at = (userId: string) => ({ userId, now: new Date().toISOString() });

async function items(n: number, typeId: string | null) {
  const lab = h.a.legacyLab;
  const out: { itemId: string; typeId: string | null }[] = [];
  for (let i = 0; i < n; i++) {
    const item = await createItem(h.deps, h.a.admin.actor, { labId: lab.id, name: `Bottle ${i}`, typeId, quantity: '1' });
    out.push({ itemId: item.id, typeId });
  }
  return out;
}

describe('hazard storage', () => {
  it('an item inherits its type, its own override, an empty own set means none, null inherits again', async () => {
    const lab = h.a.legacyLab;
    const [inherit, own, none] = await items(3, lab.typeId);
    await setHazardsIn(h.deps.db, { kind: 'type', id: lab.typeId }, { labId: lab.id, codes: ['H225', 'H319'], ...at(h.a.admin.id) });
    await setHazardsIn(h.deps.db, { kind: 'item', id: own!.itemId }, { labId: lab.id, codes: ['H290', 'H314'], ...at(h.a.admin.id) });
    await setHazardsIn(h.deps.db, { kind: 'item', id: none!.itemId }, { labId: lab.id, codes: [], ...at(h.a.admin.id) });

    const eff = await effectiveHazards(h.deps.db, [inherit!, own!, none!, { itemId: 'no-such-item', typeId: null }]);
    expect(eff.get(inherit!.itemId)).toMatchObject({
      source: 'type',
      codes: ['H225', 'H319'],
      pictograms: ['GHS02', 'GHS07'],
      signalWord: 'Danger',
    });
    expect(eff.get(own!.itemId)).toMatchObject({ source: 'item', codes: ['H290', 'H314'], pictograms: ['GHS05'] });
    expect(eff.get(none!.itemId)).toMatchObject({ source: 'item', codes: [], classes: [], signalWord: null });
    expect(eff.get('no-such-item')).toMatchObject({ source: 'none', codes: [], updatedBy: null });
    expect(eff.get(own!.itemId)!.updatedBy).toBe(h.a.admin.id);

    expect(await hazardSetOf(h.deps.db, { kind: 'item', id: none!.itemId })).toMatchObject({ codes: [] });
    await setHazardsIn(h.deps.db, { kind: 'item', id: none!.itemId }, { labId: lab.id, codes: null, ...at(h.a.admin.id) });
    expect(await hazardSetOf(h.deps.db, { kind: 'item', id: none!.itemId })).toBeUndefined();
    expect((await effectiveHazards(h.deps.db, [none!])).get(none!.itemId)!.source).toBe('type');

    // Replacing keeps one set and exactly the new codes.
    await setHazardsIn(h.deps.db, { kind: 'item', id: own!.itemId }, { labId: lab.id, codes: ['H260'], ...at(h.a.member.id) });
    expect(await hazardSetOf(h.deps.db, { kind: 'item', id: own!.itemId })).toMatchObject({ codes: ['H260'], updatedBy: h.a.member.id });
  });

  it('filters a query of items by class: own codes, inherited codes, and an own set that overrides the type', async () => {
    const lab = h.a.migratedLab;
    const [inherits, overrides, ownFlammable, plain] = await (async () => {
      const out = [];
      for (const name of ['inherits', 'overrides', 'own', 'plain'])
        out.push(
          await createItem(h.deps, h.a.admin.actor, {
            labId: lab.id,
            name: `Filter ${name}`,
            typeId: name === 'plain' ? null : lab.typeId,
          }),
        );
      return out;
    })();
    await setHazardsIn(h.deps.db, { kind: 'type', id: lab.typeId }, { labId: lab.id, codes: ['H226'], ...at(h.a.admin.id) });
    await setHazardsIn(h.deps.db, { kind: 'item', id: overrides!.id }, { labId: lab.id, codes: ['H302'], ...at(h.a.admin.id) });
    await setHazardsIn(h.deps.db, { kind: 'item', id: ownFlammable!.id }, { labId: lab.id, codes: ['H224', 'H336'], ...at(h.a.admin.id) });
    const found = async (classId: string) =>
      (
        await h.deps.db
          .selectFrom('inventory_items')
          .select('inventory_items.id')
          .where('inventory_items.id', 'in', [inherits!.id, overrides!.id, ownFlammable!.id, plain!.id])
          .where(hazardClassCondition(classId, { id: 'inventory_items.id', typeId: 'inventory_items.type_id' }))
          .execute()
      )
        .map((r) => r.id)
        .sort();
    expect(await found('flammable-liquid')).toEqual([inherits!.id, ownFlammable!.id].sort());
    expect(await found('acute-toxicity-oral')).toEqual([overrides!.id]);
    expect(await found('stot-single-exposure')).toEqual([ownFlammable!.id]);
    expect(await found('organic-peroxide')).toEqual([]);
    expect(await found('no-such-class')).toEqual([]);
  });

  it('reads any number of items in a bounded number of statements', async () => {
    const many = await items(30, h.a.legacyLab.typeId);
    const statements: string[] = [];
    const counted = openCountedHandle(h, (s) => statements.push(s));
    try {
      const eff = await effectiveHazards(counted.db, many);
      expect(eff.size).toBe(30);
      expect([...eff.values()].every((e) => e.source === 'type')).toBe(true);
      // The items' own sets and their types', in one statement (src/hazards/repository.ts readSets).
      expect(statements.length).toBe(1);
    } finally {
      await counted.close();
    }
  });
});
