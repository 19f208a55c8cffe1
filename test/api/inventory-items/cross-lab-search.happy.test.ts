// GET /inventory-items?q without lab_id searches every lab the caller may see (docs/product.md §14 "Search scope",
// docs/api.md "Searching and filtering inventory items"): a word of 3 characters or more anywhere inside the
// document, case- and accent-insensitive, shorter words at the start of a word; lab_id narrows to one lab.
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem } from './_helpers.js';
import { allPages, listItems, namesFor } from './_search.js';

const h = useHarness({}, async (h) => {
  const actor = h.a.admin.actor;
  await addItem(h, actor, { labId: h.a.legacyLab.id, name: 'Dimethyl sulfoxide', vendor: 'Carl Roth', lotNumber: 'GR3323', quantity: '1' });
  await addItem(h, actor, { labId: h.a.migratedLab.id, name: 'Ethyl acetate', vendor: 'Merck', catalogNumber: '1.09623' }, [
    { quantity: '2', lotNumber: 'K5531' },
  ]);
  await addItem(h, actor, { labId: h.a.migratedLab.id, name: 'Methylene blue', vendor: 'Sigma-Aldrich' }, [
    { quantity: '1', lotNumber: 'MKCR-4471' },
  ]);
  await addItem(h, actor, { labId: h.a.legacyLab.id, name: 'Crème de Méthyl', vendor: 'Façonnier', quantity: '1' });
});

describe('GET /inventory-items?q across every visible lab (happy)', () => {
  it('a member of two labs finds inside words in both labs at once, in the list order', async () => {
    const r = await listItems(h, h.a.member.token, { q: 'ethyl' });
    expect(r.status, r.body).toBe(200);
    expect(r.names).toEqual(['Dimethyl sulfoxide', 'Ethyl acetate', 'Methylene blue', 'Crème de Méthyl']);
    expect(new Set(r.items.map((i) => i.lab.id))).toEqual(new Set([h.a.legacyLab.id, h.a.migratedLab.id]));
    expect(r.total).toBe(4);
  });

  it('lab_id narrows the same search to one lab', async () => {
    expect(await namesFor(h, h.a.member.token, { q: 'ethyl', lab_id: h.a.migratedLab.id })).toEqual(['Ethyl acetate', 'Methylene blue']);
    expect(await namesFor(h, h.a.member.token, { q: 'ethyl', lab_id: h.a.legacyLab.id })).toEqual([
      'Dimethyl sulfoxide',
      'Crème de Méthyl',
    ]);
  });

  it('case and accents do not matter, on either side', async () => {
    for (const q of ['METHYL', 'méthyl', 'MÉTHYL', 'ethyl'])
      expect(await namesFor(h, h.a.member.token, { q }), q).toContain('Crème de Méthyl');
    expect(await namesFor(h, h.a.member.token, { q: 'aconn' })).toEqual(['Crème de Méthyl']);
    expect(await namesFor(h, h.a.member.token, { q: 'reme' })).toEqual(['Crème de Méthyl']);
  });

  it('inside lot and catalog numbers, of the item and of its instances, and inside dashed words', async () => {
    expect(await namesFor(h, h.a.member.token, { q: '3323' })).toEqual(['Dimethyl sulfoxide']);
    expect(await namesFor(h, h.a.member.token, { q: 'r332' })).toEqual(['Dimethyl sulfoxide']);
    expect(await namesFor(h, h.a.member.token, { q: '553' })).toEqual(['Ethyl acetate']);
    expect(await namesFor(h, h.a.member.token, { q: '0962' })).toEqual(['Ethyl acetate']);
    expect(await namesFor(h, h.a.member.token, { q: 'cr-44' })).toEqual(['Methylene blue']);
    expect(await namesFor(h, h.a.member.token, { q: 'ma-aldr' })).toEqual(['Methylene blue']);
  });

  it('every word must match; a short word matches the start of a word, a long one anywhere', async () => {
    expect(await namesFor(h, h.a.member.token, { q: 'thyl ace' })).toEqual(['Ethyl acetate']);
    expect(await namesFor(h, h.a.member.token, { q: 'thyl su' })).toEqual(['Dimethyl sulfoxide']);
    // "ul" is inside "sulfoxide" but starts none of its words.
    expect(await namesFor(h, h.a.member.token, { q: 'thyl ul' })).toEqual([]);
    // "Me" starts "Merck", "Methylene" and "Méthyl"; it is inside "Dimethyl", which does not count for 2 characters.
    expect(await namesFor(h, h.a.member.token, { q: 'me' })).toEqual(['Ethyl acetate', 'Methylene blue', 'Crème de Méthyl']);
    expect(await namesFor(h, h.a.member.token, { q: 'x' })).toEqual([]);
  });

  it('combines with the other filters and sorts, and pages with every match once', async () => {
    expect(await namesFor(h, h.a.member.token, { q: 'ethyl', sort: 'name' })).toEqual([
      'Crème de Méthyl',
      'Dimethyl sulfoxide',
      'Ethyl acetate',
      'Methylene blue',
    ]);
    expect(await namesFor(h, h.a.member.token, { q: 'ethyl', type_id: h.a.migratedLab.typeId })).toEqual([]);
    const ids = await allPages(h, h.a.member.token, { q: 'ethyl' }, 1);
    expect(ids).toHaveLength(4);
  });
});
