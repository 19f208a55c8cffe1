// Placement tests' scenario (docs/safety.md): in the fixture's migrated lab, a "Solvent cabinet" marked a control
// area whose limit for flammable liquids IB and IC is 5 L, holding 4 L of acetone (4 bottles of 1 L, GHS H225:
// flammable liquid 2); a bench shelf holding hydrogen peroxide 30 % (H271 H302 H318: an oxidizing liquid).
import { expect } from 'vitest';
import { setHazardsIn } from '../../../src/hazards/repository.js';
import { createItem } from '../../../src/inventory/items.js';
import type { Harness } from '../../helpers/harness.js';

export interface Scenario {
  labId: string;
  cabinetId: string;
  shelfId: string;
  acetone: { itemId: string; instanceId: string };
  peroxide: { itemId: string; instanceId: string };
  vendor: string;
}

let seq = 0;

export async function scenario(h: Harness): Promise<Scenario> {
  seq++;
  const lab = h.a.migratedLab;
  const admin = h.a.admin;
  const loc = async (name: string) => {
    const res = await h.call(admin.token, {
      method: 'POST',
      url: '/locations',
      payload: { lab_id: lab.id, parent_id: lab.locationIds[0], name },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  const cabinetId = await loc(`Solvent cabinet ${seq}`);
  const shelfId = await loc(`Bench shelf ${seq}`);
  const vendor = `Solvents Inc ${seq}`;
  const acetone = await createItem(
    h.deps,
    admin.actor,
    { labId: lab.id, name: `Acetone ${seq}`, typeId: lab.typeId, vendor, catalogNumber: `ACE-${seq}`, unitSize: '1 L' },
    [{ quantity: '4', locationId: cabinetId }],
  );
  const peroxide = await createItem(
    h.deps,
    admin.actor,
    { labId: lab.id, name: `Hydrogen peroxide 30 % ${seq}`, typeId: lab.typeId, vendor, catalogNumber: `HP-${seq}`, unitSize: '500 mL' },
    [{ quantity: '1', locationId: shelfId }],
  );
  const at = { userId: admin.id, now: new Date().toISOString(), labId: lab.id };
  await setHazardsIn(h.deps.db, { kind: 'item', id: acetone.id }, { ...at, codes: ['H225', 'H319', 'H336'] });
  await setHazardsIn(h.deps.db, { kind: 'item', id: peroxide.id }, { ...at, codes: ['H271', 'H302', 'H318'] });
  const marked = await h.call(admin.token, {
    method: 'PUT',
    url: `/locations/${cabinetId}/control-area`,
    payload: { sprinklered: false, cabinets: false, limits: [{ category: 'flammable-liquid-ib-ic', state: 'liquid', limit: '5' }] },
  });
  expect(marked.statusCode, marked.body).toBe(200);
  return {
    labId: lab.id,
    cabinetId,
    shelfId,
    vendor,
    acetone: { itemId: acetone.id, instanceId: acetone.instances[0]!.id },
    peroxide: { itemId: peroxide.id, instanceId: peroxide.instances[0]!.id },
  };
}

let shelves = 0;
/** A new, empty shelf under the lab's first root location (nothing stored there to conflict with). */
export async function emptyShelf(h: Harness, labId: string): Promise<string> {
  const res = await h.call(h.a.admin.token, {
    method: 'POST',
    url: '/locations',
    payload: { lab_id: labId, parent_id: h.a.migratedLab.locationIds[0], name: `Empty shelf ${++shelves}-${Date.now()}` },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

export const setModes = async (h: Harness, labId: string, segregation: 'warn' | 'block', limits: 'warn' | 'block') => {
  const res = await h.call(h.a.admin.token, { method: 'PUT', url: `/labs/${labId}/safety-settings`, payload: { segregation, limits } });
  expect(res.statusCode, res.body).toBe(200);
};

export const addInstance = (h: Harness, itemId: string, locationId: string, quantity: string) =>
  h.call(h.a.admin.token, { method: 'POST', url: `/inventory-items/${itemId}/instances`, payload: { quantity, location_id: locationId } });

export const move = (h: Harness, itemId: string, instanceId: string, locationId: string) =>
  h.call(h.a.admin.token, {
    method: 'PATCH',
    url: `/inventory-items/${itemId}/instances/${instanceId}`,
    payload: { location_id: locationId },
  });

export const preflight = (h: Harness, token: string | null, payload: unknown) =>
  h.call(token, { method: 'POST', url: '/placement-checks', payload: payload as any });

export const activeCount = async (h: Harness, itemId: string) =>
  (
    await h.deps.db
      .selectFrom('inventory_item_instances')
      .select('id')
      .where('item_id', '=', itemId)
      .where('archived_at', 'is', null)
      .execute()
  ).length;
