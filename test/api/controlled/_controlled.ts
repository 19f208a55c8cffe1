// Controlled-substance tests' helpers (docs/controlled-substances.md): a fresh controlled item of the fixture's
// migrated lab (two containers at two places), and the endpoints' calls.
import { randomUUID } from 'node:crypto';
import * as mupdf from 'mupdf';
import { expect } from 'vitest';
import type { OrgFixture } from '../../helpers/fixtures.js';
import type { Harness } from '../../helpers/harness.js';

export interface Controlled {
  itemId: string;
  /** [0]: 5 at `places[0]`, [1]: 2 at `places[1]`. */
  instanceIds: [string, string];
  places: [string, string];
}

async function location(h: Harness, org: OrgFixture, labId: string, name: string): Promise<string> {
  const res = await h.call(org.admin.token, { method: 'POST', url: '/locations', payload: { lab_id: labId, parent_id: null, name } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

/** An item of the migrated lab with two containers (5 and 2 mL), not yet controlled. */
export async function makeItem(h: Harness, org: OrgFixture = h.a): Promise<Controlled> {
  const lab = org.migratedLab;
  const tag = randomUUID().slice(0, 8);
  const places: [string, string] = [await location(h, org, lab.id, `Safe ${tag}`), await location(h, org, lab.id, `Bench ${tag}`)];
  const res = await h.call(org.admin.token, {
    method: 'POST',
    url: '/inventory-items',
    payload: {
      lab_id: lab.id,
      name: `Ketamine ${tag}`,
      vendor: 'Sigma',
      catalog_number: `K-${tag}`,
      unit_size: '1 mL',
      instances: [
        { quantity: '5', lot_number: 'L1', location_id: places[0] },
        { quantity: '2', lot_number: 'L2', location_id: places[1] },
      ],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const ids = res.json().instances.map((i: any) => i.id as string) as [string, string];
  return { itemId: res.json().id, instanceIds: ids, places };
}

export const mark = (h: Harness, token: string | null, itemId: string, body: unknown = { schedule: 'DEA Schedule II' }, headers = {}) =>
  h.call(token, { method: 'PUT', url: `/controlled-items/${itemId}`, payload: body as any, headers });

/** A controlled item (marked by org A's admin): its ledger opens at 7. */
export async function makeControlled(h: Harness, org: OrgFixture = h.a): Promise<Controlled> {
  const c = await makeItem(h, org);
  const res = await mark(h, org.admin.token, c.itemId);
  expect(res.statusCode, res.body).toBe(201);
  return c;
}

export const get = (h: Harness, token: string | null, url: string) => h.call(token, { method: 'GET', url });

export async function ledgerOf(h: Harness, token: string, itemId: string): Promise<any[]> {
  const res = await get(h, token, `/controlled-items/${itemId}/ledger?per_page=100`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** The entries after the opening one. */
export const changesOf = async (h: Harness, token: string, itemId: string) => (await ledgerOf(h, token, itemId)).slice(1);

export const witness = (h: Harness, token: string | null, entryId: string, headers = {}) =>
  h.call(token, { method: 'POST', url: `/controlled-entries/${entryId}/witness`, headers });

export const correct = (h: Harness, token: string | null, itemId: string, body: unknown) =>
  h.call(token, { method: 'POST', url: `/controlled-items/${itemId}/corrections`, payload: body as any });

export const unmark = (h: Harness, token: string | null, itemId: string, body: unknown = { reason: 'No longer scheduled' }, headers = {}) =>
  h.call(token, { method: 'POST', url: `/controlled-items/${itemId}/unmark`, payload: body as any, headers });

export const reconciliation = (h: Harness, token: string | null, itemId: string, query = '') =>
  get(h, token, `/controlled-items/${itemId}/reconciliation${query}`);

/** Rows of the two ledger tables, for "nothing written" checks. */
export async function ledgerRows(h: Harness): Promise<number> {
  const n = async (t: 'controlled_ledger' | 'controlled_witnesses' | 'controlled_items') =>
    Number(
      (
        await h.deps.db
          .selectFrom(t)
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return (await n('controlled_ledger')) * 1_000_000 + (await n('controlled_witnesses')) * 1000 + (await n('controlled_items'));
}

/** The text of every page of a PDF, read back with MuPDF (as test/api/safety-reports/_report.ts does). */
export function pdfText(pdf: Uint8Array): string {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  try {
    let text = '';
    for (let i = 0; i < doc.countPages(); i++) {
      const page = doc.loadPage(i);
      text += page.toStructuredText('preserve-whitespace').asText();
      page.destroy();
    }
    return text;
  } finally {
    doc.destroy();
  }
}

export const pdfPages = (pdf: Uint8Array): number => {
  const doc = mupdf.Document.openDocument(pdf, 'application/pdf');
  try {
    return doc.countPages();
  } finally {
    doc.destroy();
  }
};

export const labReconciliation = (h: Harness, token: string | null, labId: string, suffix = '') =>
  get(h, token, `/labs/${labId}/controlled-reconciliation${suffix}`);
