// A container's GTIN and serial (docs/scanning.md "Identifiers"): the calls, and a fresh item of the migrated lab
// so that each test's containers are its own.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { OrgFixture } from '../../helpers/fixtures.js';
import type { Harness } from '../../helpers/harness.js';

/** A GTIN-14 with a valid check digit, and the same product's GTIN-13 (a leading zero less). */
export const GTIN = '09506000134352';
export const GTIN13 = '9506000134352';
/** Another product's. */
export const OTHER_GTIN = '04012345000009';

const path = (itemId: string, instanceId: string) => `/inventory-items/${itemId}/instances/${instanceId}/identifiers`;

export const getIds = (h: Harness, token: string | null, itemId: string, instanceId: string) =>
  h.call(token, { method: 'GET', url: path(itemId, instanceId) });

export const putIds = (h: Harness, token: string | null, itemId: string, instanceId: string, payload: unknown) =>
  h.call(token, { method: 'PUT', url: path(itemId, instanceId), payload: payload as any });

export const listIds = (h: Harness, token: string | null, itemId: string) =>
  h.call(token, { method: 'GET', url: `/inventory-items/${itemId}/identifiers` });

export const findBy = (h: Harness, token: string | null, barcode: string) =>
  h.call(token, { method: 'POST', url: '/barcodes/gs1/containers', payload: { barcode } });

export const addInstance = (h: Harness, token: string | null, itemId: string, payload: unknown, headers: Record<string, string> = {}) =>
  h.call(token, { method: 'POST', url: `/inventory-items/${itemId}/instances`, payload: payload as any, headers });

/** A new item of the organization's migrated lab, without instances. */
export async function freshItem(h: Harness, org: OrgFixture = h.a): Promise<string> {
  const tag = randomUUID().slice(0, 8);
  const res = await h.call(org.admin.token, {
    method: 'POST',
    url: '/inventory-items',
    payload: { lab_id: org.migratedLab.id, name: `Taq polymerase ${tag}`, vendor: 'Acme', catalog_number: `T-${tag}` },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

const instanceIdsOf = (item: { instances: { id: string }[] }) => item.instances.map((i) => i.id);

/** The new instance's id: the one the item lists that was not there before. */
export async function addedInstance(h: Harness, token: string, itemId: string, payload: unknown): Promise<string> {
  const before = instanceIdsOf((await h.call(token, { method: 'GET', url: `/inventory-items/${itemId}` })).json());
  const res = await addInstance(h, token, itemId, payload);
  expect(res.statusCode, res.body).toBe(201);
  const added = instanceIdsOf(res.json()).filter((id) => !before.includes(id));
  expect(added).toHaveLength(1);
  return added[0]!;
}

/** How many identifier rows the database holds (a refusal writes none). */
export async function identifierRows(h: Harness): Promise<number> {
  const row = await h.deps.db
    .selectFrom('instance_identifiers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
