// Stocktake tests' helpers (docs/stocktake.md): a fresh location subtree of the fixture's migrated lab with
// containers in it (each test its own, so sessions of one file never meet), and the stocktake calls.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { addMember, createLab } from '../../../src/labs/service.js';
import type { OrgFixture } from '../../helpers/fixtures.js';
import type { Harness } from '../../helpers/harness.js';

export interface Shelf {
  /** Root of the counted subtree, a location below it, and a location outside it (same lab). */
  rootId: string;
  childId: string;
  outsideId: string;
  itemId: string;
  /** Instances: [0] at the root (quantity 5), [1] at the child (quantity 2), [2] outside (quantity 1). */
  instanceIds: [string, string, string];
}

async function location(h: Harness, org: OrgFixture, labId: string, parentId: string | null, name: string): Promise<string> {
  const res = await h.call(org.admin.token, { method: 'POST', url: '/locations', payload: { lab_id: labId, parent_id: parentId, name } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

export async function makeShelf(h: Harness, org: OrgFixture = h.a): Promise<Shelf> {
  const lab = org.migratedLab;
  const tag = randomUUID().slice(0, 8);
  const rootId = await location(h, org, lab.id, null, `Freezer ${tag}`);
  const childId = await location(h, org, lab.id, rootId, 'Rack 1');
  const outsideId = await location(h, org, lab.id, null, `Bench ${tag}`);
  const res = await h.call(org.admin.token, {
    method: 'POST',
    url: '/inventory-items',
    payload: {
      lab_id: lab.id,
      name: `Buffer ${tag}`,
      vendor: 'Sigma',
      catalog_number: `B-${tag}`,
      instances: [
        { quantity: '5', lot_number: 'L-ROOT', location_id: rootId },
        { quantity: '2', lot_number: 'L-CHILD', location_id: childId },
        { quantity: '1', lot_number: 'L-OUT', location_id: outsideId },
      ],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const item = res.json();
  const ids = item.instances.map((i: any) => i.id as string) as [string, string, string];
  return { rootId, childId, outsideId, itemId: item.id, instanceIds: ids };
}

export const start = (h: Harness, token: string | null, locationId: string, headers: Record<string, string> = {}) =>
  h.call(token, { method: 'POST', url: '/stocktakes', payload: { location_id: locationId }, headers });

export async function started(h: Harness, token: string, locationId: string): Promise<any> {
  const res = await start(h, token, locationId);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export const count = (h: Harness, token: string | null, id: string, instanceId: string, payload: Record<string, unknown> = {}) =>
  h.call(token, { method: 'PUT', url: `/stocktakes/${id}/counts/${instanceId}`, payload });

export const apply = (
  h: Harness,
  token: string | null,
  id: string,
  payload: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) => h.call(token, { method: 'POST', url: `/stocktakes/${id}/apply`, payload, headers });

export const get = (h: Harness, token: string | null, id: string, suffix = '') =>
  h.call(token, { method: 'GET', url: `/stocktakes/${id}${suffix}` });

/** The instance's quantity and location as the inventory has them now. */
export async function instanceNow(h: Harness, itemId: string, instanceId: string) {
  const res = await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${itemId}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().instances.find((i: any) => i.id === instanceId) as
    | { quantity: string; location: { pathNames: string[] } | null }
    | undefined;
}

export const lineOf = (view: any, instanceId: string) => view.lines.find((l: any) => l.instance_id === instanceId);

/** Another item with `n` containers (quantity 1 each) stored at the location; their instance ids. */
export async function moreContainers(h: Harness, locationId: string, n: number): Promise<{ itemId: string; instanceIds: string[] }> {
  const res = await h.call(h.a.admin.token, {
    method: 'POST',
    url: '/inventory-items',
    payload: {
      lab_id: h.a.migratedLab.id,
      name: `Tips ${randomUUID().slice(0, 8)}`,
      instances: Array.from({ length: n }, (_, i) => ({ quantity: '1', lot_number: `T-${i}`, location_id: locationId })),
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { itemId: res.json().id, instanceIds: res.json().instances.map((i: any) => i.id as string) };
}

export interface LegacyShelf {
  labId: string;
  /** Items: [0] "Acetone" (quantity 5, Cabinet 1 / Shelf A), [1] "Buffer" (2, Cabinet 1), [2] "Chloroform" (1, nowhere). */
  itemIds: [string, string, string];
}

/**
 * A fresh lab that does not use instances (a count covers a whole lab, so each test has its own), the member in it,
 * with three items.
 */
export async function makeLegacyLab(h: Harness, org: OrgFixture = h.a): Promise<LegacyShelf> {
  const tag = randomUUID().slice(0, 8);
  const labId = (await createLab(h.deps.db, org.admin.actor, { organizationId: org.orgId, name: `Bench lab ${tag}` })).id;
  await addMember(h.deps.db, org.admin.actor, labId, org.member.id);
  const itemIds: string[] = [];
  for (const [name, quantity, location, sublocation] of [
    ['Acetone', '5', 'Cabinet 1', 'Shelf A'],
    ['Buffer', '2', 'Cabinet 1', null],
    ['Chloroform', '1', null, null],
  ] as const) {
    const res = await h.call(org.admin.token, {
      method: 'POST',
      url: '/inventory-items',
      payload: {
        lab_id: labId,
        name: `${name} ${tag}`,
        quantity,
        lot_number: `L-${name}`,
        ...(location ? { location: { name: location } } : {}),
        ...(sublocation ? { sublocation: { name: sublocation } } : {}),
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    itemIds.push(res.json().id);
  }
  return { labId, itemIds: itemIds as [string, string, string] };
}

export const startLab = (h: Harness, token: string | null, labId: string, headers: Record<string, string> = {}) =>
  h.call(token, { method: 'POST', url: '/stocktakes', payload: { lab_id: labId }, headers });

export const countItem = (h: Harness, token: string | null, id: string, itemId: string, payload: Record<string, unknown> = {}) =>
  h.call(token, { method: 'PUT', url: `/stocktakes/${id}/items/${itemId}`, payload });

export const itemLineOf = (view: any, itemId: string) => view.lines.find((l: any) => l.item_id === itemId);

/** The item's quantity as the inventory has it now. */
export async function itemQuantity(h: Harness, itemId: string): Promise<string> {
  const res = await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${itemId}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().quantity;
}
