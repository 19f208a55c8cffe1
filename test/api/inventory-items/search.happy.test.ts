// GET /inventory-items?q=…: docs/product.md §12 and §14. Words of 3 characters or more match inside words, shorter
// ones the start of words, of the name, vendor, catalog, CAS and serial numbers and the lot numbers of the item and
// its active instances; dashes do not matter; every word must match; the index follows every change in the
// change's own transaction.
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem } from './_helpers.js';
import { allPages, listItems, namesFor } from './_search.js';

let token: string;
let trisId: string;
let archivedInstanceId: string;

const h = useHarness({}, async (h) => {
  token = h.a.admin.token;
  const legacy = h.a.legacyLab.id;
  const migrated = h.a.migratedLab.id;
  await addItem(h, h.a.admin.actor, {
    labId: legacy,
    name: 'Sodium chloride',
    vendor: 'Roth',
    catalogNumber: 'P029.2',
    casNumber: '7647-14-5',
    serialNumber: 'SN-0042',
    lotNumber: 'NaCl-2024',
    quantity: '1',
  });
  const tris = await addItem(
    h,
    h.a.admin.actor,
    { labId: migrated, name: 'Tris HCl buffer', vendor: 'Sigma-Aldrich', catalogNumber: 'T-3253', casNumber: '1185-53-1' },
    [
      { quantity: '1', lotNumber: 'TRIS-01' },
      { quantity: '2', lotNumber: 'X9Y8' },
    ],
  );
  trisId = tris.id;
  archivedInstanceId = tris.instances[1]!.id;
  await addItem(h, h.a.admin.actor, { labId: legacy, name: 'Äthanol absolut', vendor: 'Merck', quantity: '2' });
  await addItem(h, h.a.admin.actor, { labId: legacy, name: '氯化钠 (sodium chloride, lab grade)', quantity: '1' });
  await addItem(h, h.b.admin.actor, { labId: h.b.legacyLab.id, name: 'Sodium azide B', vendor: 'Roth', quantity: '1' });
});

describe('GET /inventory-items?q (happy)', () => {
  it('finds words of the name by their start or inside them, whatever the case or accents', async () => {
    expect(await namesFor(h, token, { q: 'sodium' })).toEqual(['Sodium chloride', '氯化钠 (sodium chloride, lab grade)']);
    expect(await namesFor(h, token, { q: 'SOD' })).toEqual(['Sodium chloride', '氯化钠 (sodium chloride, lab grade)']);
    expect(await namesFor(h, token, { q: 'chlor' })).toEqual(['Sodium chloride', '氯化钠 (sodium chloride, lab grade)']);
    // Since issue 23 (migration 0025) a word of 3 characters or more matches inside words too.
    expect(await namesFor(h, token, { q: 'hloride' })).toEqual(['Sodium chloride', '氯化钠 (sodium chloride, lab grade)']);
    expect(await namesFor(h, token, { q: 'THANOL' })).toEqual(['Ethanol A', 'Äthanol absolut']);
    // Shorter words only start words: "hl" is inside "chloride" but starts none of these words.
    expect(await namesFor(h, token, { q: 'hl' })).toEqual([]);
    expect(await namesFor(h, token, { q: 'ch' })).toEqual(['Sodium chloride', '氯化钠 (sodium chloride, lab grade)']);
    for (const q of ['athanol', 'ÄTHANOL', 'äth', 'Athanol']) expect(await namesFor(h, token, { q })).toEqual(['Äthanol absolut']);
    expect(await namesFor(h, token, { q: '氯化钠' })).toEqual(['氯化钠 (sodium chloride, lab grade)']);
    // Mathematical letters decompose to plain ones.
    expect(await namesFor(h, token, { q: '𝔰𝔬𝔡𝔦𝔲𝔪 𝔠𝔥𝔩𝔬𝔯𝔦𝔡𝔢' })).toEqual(['Sodium chloride', '氯化钠 (sodium chloride, lab grade)']);
  });

  it('finds the vendor, catalog, CAS, serial and lot numbers', async () => {
    expect(await namesFor(h, token, { q: 'roth' })).toEqual(['Sodium chloride']);
    expect(await namesFor(h, token, { q: 'aldrich' })).toEqual(['Tris HCl buffer']);
    expect(await namesFor(h, token, { q: 'P029.2' })).toEqual(['Sodium chloride']);
    expect(await namesFor(h, token, { q: 'sn-0042' })).toEqual(['Sodium chloride']);
    expect(await namesFor(h, token, { q: 'nacl-2024' })).toEqual(['Sodium chloride']);
    // The lot numbers of an item's active instances.
    expect(await namesFor(h, token, { q: 'TRIS-01' })).toEqual(['Tris HCl buffer']);
    expect(await namesFor(h, token, { q: 'x9y8' })).toEqual(['Tris HCl buffer']);
    // The fixture's legacy lot and migrated instance lot.
    expect(await namesFor(h, token, { q: 'LOT-1' })).toEqual(['Ethanol A']);
    expect(await namesFor(h, token, { q: 'a1' })).toEqual(['Anti-GFP A']);
  });

  it('matches CAS and catalog numbers with or without their dashes, and parts of them', async () => {
    for (const q of ['7647-14-5', '7647145', '7647-14', '764714', '14-5', '7647'])
      expect(await namesFor(h, token, { q }), q).toEqual(['Sodium chloride']);
    for (const q of ['T-3253', 't3253', 'T 3253', '1185-53-1', '1185531'])
      expect(await namesFor(h, token, { q }), q).toEqual(['Tris HCl buffer']);
    for (const q of ['P0292', 'p029']) expect(await namesFor(h, token, { q }), q).toEqual(['Sodium chloride']);
    // A dashed search word also matches the same words with spaces between them.
    expect(await namesFor(h, token, { q: 'tris-hcl' })).toEqual(['Tris HCl buffer']);
    expect(await namesFor(h, token, { q: 'anti-gfp' })).toEqual(['Anti-GFP A']);
    expect(await namesFor(h, token, { q: 'antigfp' })).toEqual(['Anti-GFP A']);
  });

  it('needs every word to match, in any order and any field', async () => {
    expect(await namesFor(h, token, { q: 'tris buffer' })).toEqual(['Tris HCl buffer']);
    expect(await namesFor(h, token, { q: 'buffer  TRIS sigma' })).toEqual(['Tris HCl buffer']);
    expect(await namesFor(h, token, { q: 'sodium roth 7647' })).toEqual(['Sodium chloride']);
    expect(await namesFor(h, token, { q: 'tris sodium' })).toEqual([]);
  });

  it('combines with lab_id and never shows another organization or a lab the member does not belong to', async () => {
    expect(await namesFor(h, token, { q: 'sodium', lab_id: h.a.migratedLab.id })).toEqual([]);
    expect(await namesFor(h, token, { q: 'sodium', lab_id: h.a.legacyLab.id })).toHaveLength(2);
    expect(await namesFor(h, token, { q: 'sodium', lab_id: h.b.legacyLab.id })).toEqual([]);
    expect(await namesFor(h, token, { q: 'azide' })).toEqual([]);
    expect(await namesFor(h, h.b.admin.token, { q: 'sodium' })).toEqual(['Sodium azide B']);
    const hidden = await addItem(h, h.a.admin.actor, { labId: h.a.otherLab.id, name: 'Sodium hidden', quantity: '1' });
    expect(await namesFor(h, token, { q: 'hidden' })).toEqual(['Sodium hidden']);
    expect(await namesFor(h, h.a.member.token, { q: 'hidden' })).toEqual([]);
    expect(await namesFor(h, h.a.outsider.token, { q: 'sodium' })).toEqual([]);
    await h.call(token, { method: 'DELETE', url: `/inventory-items/${hidden.id}` });
  });

  it('without q, or with a q of no words, lists exactly what the plain list does', async () => {
    const plain = await listItems(h, token, { per_page: '100' });
    for (const q of ['', '   ', '-', '"', '*', '()', '🧪']) {
      const r = await listItems(h, token, { q, per_page: '100' });
      expect(r.status, `${q}: ${r.body}`).toBe(200);
      expect(r.ids).toEqual(plain.ids);
      expect(r.total).toBe(plain.total);
    }
  });
});

describe('the index follows every change, in its transaction', () => {
  it('an edited name, vendor or catalog number is found by its new words only', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Glycerol', vendor: 'Acme', quantity: '1' });
    expect(await namesFor(h, token, { q: 'glycerol' })).toEqual(['Glycerol']);
    const res = await h.call(token, {
      method: 'PATCH',
      url: `/inventory-items/${item.id}`,
      payload: { name: 'Glycine', vendor: 'Fluka', catalog_number: 'G-8898', cas_number: '56-40-6', serial_number: 'S77' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await namesFor(h, token, { q: 'glycerol' })).toEqual([]);
    expect(await namesFor(h, token, { q: 'acme' })).toEqual([]);
    for (const q of ['glycine', 'fluka', 'g8898', '56-40-6', 's77']) expect(await namesFor(h, token, { q }), q).toEqual(['Glycine']);
    await h.call(token, { method: 'DELETE', url: `/inventory-items/${item.id}` });
    expect(await namesFor(h, token, { q: 'glycine' })).toEqual([]);
  });

  it("instances' lot numbers: added, edited and archived", async () => {
    const added = await h.call(token, {
      method: 'POST',
      url: `/inventory-items/${trisId}/instances`,
      payload: { quantity: '1', lot_number: 'NEWLOT-7' },
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(await namesFor(h, token, { q: 'newlot' })).toEqual(['Tris HCl buffer']);
    const instanceId = added.json().instances.at(-1).id;
    const edited = await h.call(token, {
      method: 'PATCH',
      url: `/inventory-items/${trisId}/instances/${instanceId}`,
      payload: { lot_number: 'OTHERLOT-8' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await namesFor(h, token, { q: 'newlot' })).toEqual([]);
    expect(await namesFor(h, token, { q: 'otherlot-8' })).toEqual(['Tris HCl buffer']);
    // An archived instance is no longer part of the item: neither is its lot number.
    const archived = await h.call(token, { method: 'POST', url: `/inventory-items/${trisId}/instances/${archivedInstanceId}/archive` });
    expect(archived.statusCode, archived.body).toBe(200);
    expect(await namesFor(h, token, { q: 'x9y8' })).toEqual([]);
    expect(await namesFor(h, token, { q: 'tris-01' })).toEqual(['Tris HCl buffer']);
  });

  it('a change that fails leaves the index as it was', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Urea', quantity: '1' });
    const res = await h.call(token, {
      method: 'PATCH',
      url: `/inventory-items/${item.id}`,
      payload: { name: 'Thiourea' },
      headers: { 'if-match': '"v999"' },
    });
    expect(res.statusCode).toBe(412);
    expect(await namesFor(h, token, { q: 'urea' })).toEqual(['Urea']);
    expect(await namesFor(h, token, { q: 'thiourea' })).toEqual([]);
  });
});

describe('search results page like the plain list', () => {
  it('30 matches over pages of 7: no duplicates, no gaps, Link keeps q', async () => {
    const made: string[] = [];
    for (let i = 0; i < 30; i++)
      made.push((await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: `Pipette tip ${i}`, quantity: '1' })).id);
    const ids = await allPages(h, token, { q: 'pipette tip' }, 7);
    expect(ids).toEqual(made);
    const sorted = await allPages(h, token, { q: 'pipette', sort: '-name' }, 7);
    expect(new Set(sorted)).toEqual(new Set(made));
  });
});
