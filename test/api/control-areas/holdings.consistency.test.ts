import { describe, expect, it } from 'vitest';
import { rebuildHoldings, storedHoldings } from '../../../src/hazards/holdings-repository.js';
import { createItem } from '../../../src/inventory/items.js';
import { expectHoldingsTrue } from '../../helpers/holdings.js';
import { useHarness } from '../../helpers/use-harness.js';
import { addInstance, scenario } from '../placement/_placement.js';

// location_holdings (migration 0043, src/hazards/holdings-repository.ts) keeps what each location holds per unit
// size and hazard statements, so that the control-area meter reads a few totals instead of every container. Each
// kind of write through the API, on both databases, and then the totals must equal what the containers add up to.
// Concurrent writes to the same holdings (PostgreSQL: row locks) must neither lose an update nor deadlock.

const h = useHarness();

const meterAmount = async (cabinetId: string) => {
  const res = await h.call(h.a.admin.token, { method: 'GET', url: `/locations/${cabinetId}/control-area/meter` });
  expect(res.statusCode, res.body).toBe(200);
  // A category the area holds nothing of has no line.
  return (res.json().lines.find((l: { category: string }) => l.category === 'flammable-liquid-ib-ic')?.amount ?? '0') as string;
};

describe('the control-area running totals', () => {
  it('stay equal to the containers through every kind of write, and the meter follows them', async () => {
    const s = await scenario(h);
    const token = h.a.admin.token;
    const ok = async (req: Parameters<typeof h.call>[1], what: string) => {
      const res = await h.call(token, req);
      expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(300);
      await expectHoldingsTrue(h.deps.db, `after ${what}`);
      return res;
    };
    const instanceUrl = `/inventory-items/${s.acetone.itemId}/instances/${s.acetone.instanceId}`;
    expect(await meterAmount(s.cabinetId)).toBe('4');
    await ok({ method: 'PUT', url: instanceUrl, payload: { quantity: '0.1' } }, 'a PUT of the quantity');
    await ok(
      {
        method: 'POST',
        url: `/inventory-items/${s.acetone.itemId}/adjustments`,
        payload: { delta: '0.2', instance_id: s.acetone.instanceId },
      },
      'an adjustment',
    );
    // 0.1 + 0.2 bottles of 1 L, exactly.
    expect(await meterAmount(s.cabinetId)).toBe('0.3');
    const added = await addInstance(h, s.acetone.itemId, s.cabinetId, '2');
    expect(added.statusCode, added.body).toBe(201);
    await expectHoldingsTrue(h.deps.db, 'after a new instance');
    expect(await meterAmount(s.cabinetId)).toBe('2.3');
    await ok({ method: 'PATCH', url: instanceUrl, payload: { location_id: s.shelfId } }, 'a move out of the area');
    expect(await meterAmount(s.cabinetId)).toBe('2');
    await ok({ method: 'PATCH', url: `/inventory-items/${s.acetone.itemId}`, payload: { unit_size: '500 mL' } }, 'a new unit size');
    expect(await meterAmount(s.cabinetId)).toBe('1');
    await ok(
      { method: 'PUT', url: `/inventory-items/${s.acetone.itemId}/hazards`, payload: { hazard_statements: ['H302'] } },
      'new statements',
    );
    expect(await meterAmount(s.cabinetId)).toBe('0');
    await ok(
      { method: 'PUT', url: `/inventory-items/${s.acetone.itemId}/hazards`, payload: { hazard_statements: null } },
      'own statements removed',
    );
    await ok(
      { method: 'PUT', url: `/types/${h.a.migratedLab.typeId}/hazards`, payload: { hazard_statements: ['H225'] } },
      "the type's statements",
    );
    // The acetone inherits H225 from its type now: its 2 bottles of 500 mL in the cabinet count again.
    expect(await meterAmount(s.cabinetId)).toBe('1');
    await ok(
      { method: 'PUT', url: `/types/${h.a.migratedLab.typeId}/hazards`, payload: { hazard_statements: [] } },
      "the type's statements removed",
    );
    await ok(
      { method: 'PUT', url: `/inventory-items/${s.acetone.itemId}/hazards`, payload: { hazard_statements: ['H225', 'H319'] } },
      'statements again',
    );
    await ok(
      { method: 'PUT', url: `/types/${h.a.migratedLab.typeId}/storage-attributes`, payload: { corrosive: 'acid', aqueous: true } },
      "the type's storage attributes",
    );
    await ok(
      { method: 'PUT', url: `/inventory-items/${s.peroxide.itemId}/storage-attributes`, payload: { corrosive: null, aqueous: false } },
      "an item's own storage attributes",
    );
    await ok({ method: 'POST', url: `${instanceUrl}/archive`, payload: {} }, 'an archived instance');
    await ok({ method: 'DELETE', url: `/inventory-items/${s.peroxide.itemId}` }, 'a deleted item');
    expect(await meterAmount(s.cabinetId)).toBe('1');
  });

  it('a rebuild computes the same rows again', async () => {
    await scenario(h);
    const before = await storedHoldings(h.deps.db);
    expect(before.totals.length).toBeGreaterThan(0);
    await h.deps.db.deleteFrom('location_holdings').execute();
    await h.deps.db.transaction().execute((trx) => rebuildHoldings(trx));
    await expectHoldingsTrue(h.deps.db, 'after a rebuild');
    expect((await storedHoldings(h.deps.db)).totals.length).toBe(before.totals.length);
  });

  it('concurrent writes to the same holdings lose nothing and do not deadlock', async () => {
    const s = await scenario(h);
    const lab = h.a.migratedLab;
    // Ten bottles of one flammable item and ten of another, half in the cabinet and half on the shelf.
    const items = [];
    for (const name of ['Ethanol', 'Methanol']) {
      const instances = Array.from({ length: 10 }, (_, i) => ({ quantity: '1', locationId: i % 2 ? s.cabinetId : s.shelfId }));
      const item = await createItem(h.deps, h.a.admin.actor, { labId: lab.id, name, typeId: lab.typeId, unitSize: '1 L' }, instances);
      const res = await h.call(h.a.admin.token, {
        method: 'PUT',
        url: `/inventory-items/${item.id}/hazards`,
        payload: { hazard_statements: ['H225'] },
      });
      expect(res.statusCode, res.body).toBe(200);
      items.push(item);
    }
    await expectHoldingsTrue(h.deps.db, 'before the race');
    // Every bottle moves to the other place and gets a new quantity, all at once: moves in both directions between
    // the same two holdings, from two items.
    const requests = items.flatMap((item) =>
      item.instances.map((inst, i) => {
        const url = `/inventory-items/${item.id}/instances/${inst.id}`;
        return i % 3 === 0
          ? h.call(h.a.admin.token, { method: 'PUT', url, payload: { quantity: '0.5' } })
          : h.call(h.a.admin.token, { method: 'PATCH', url, payload: { location_id: i % 2 ? s.shelfId : s.cabinetId } });
      }),
    );
    const results = await Promise.all(requests);
    expect(results.map((r) => r.statusCode).filter((c) => c >= 500)).toEqual([]);
    await expectHoldingsTrue(h.deps.db, 'after the race');
  });
});
