// GET /inventory-items?q across labs, input that could break a substring query (LIKE wildcards, FTS5 trigram
// syntax, short and odd words): never an error and never a wildcard (docs/api.md "Searching and filtering").
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, expectError, expectValidation } from './_helpers.js';
import { listItems, namesFor } from './_search.js';

const h = useHarness({}, async (h) => {
  await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Dimethyl sulfoxide', lotNumber: '50%_A', quantity: '1' });
  await addItem(h, h.a.admin.actor, { labId: h.a.migratedLab.id, name: 'Ethyl acetate' }, [{ quantity: '1' }]);
});

describe('GET /inventory-items?q across labs (errors)', () => {
  it('LIKE wildcards and trigram syntax are not wildcards: they only separate words', async () => {
    for (const q of ['%', '_', '%%%', '___', '%ethyl%', 'e_hyl', 'eth%yl', '"ethyl"', 'ethyl*', 'NEAR(ethyl)', '\\%'])
      expect((await listItems(h, h.a.member.token, { q })).status, q).toBe(200);
    expect(await namesFor(h, h.a.member.token, { q: 'e_hyl' })).toEqual([]);
    // A wildcard between letters is a separator, as a dash is: the parts joined or as a phrase, never "anything".
    expect(await namesFor(h, h.a.member.token, { q: 'eth%yl' })).toEqual(['Dimethyl sulfoxide', 'Ethyl acetate']);
    expect(await namesFor(h, h.a.member.token, { q: 'd%ethyl' })).toEqual([]);
    expect(await namesFor(h, h.a.member.token, { q: 'di_sulf' })).toEqual([]);
    expect(await namesFor(h, h.a.member.token, { q: '%ethyl%' })).toEqual(['Dimethyl sulfoxide', 'Ethyl acetate']);
    // The lot "50%_A" is the words "50" and "a" (and "50a"): "50%" is the short word "50".
    expect(await namesFor(h, h.a.member.token, { q: '50%' })).toEqual(['Dimethyl sulfoxide']);
    // Nothing but wildcards is no word: the plain list.
    expect((await listItems(h, h.a.member.token, { q: '%_%' })).total).toBe(4);
  });

  it('a q over 200 characters is 422 naming q; 401 without a valid token', async () => {
    expectValidation(await h.call(h.a.member.token, { method: 'GET', url: `/inventory-items?q=${'ethyl'.repeat(41)}` }), 'q');
    expectError(await h.call(null, { method: 'GET', url: '/inventory-items?q=ethyl' }), 401, 'unauthorized');
  });

  it('very long words and many words are answered, not refused', async () => {
    expect((await listItems(h, h.a.member.token, { q: 'ethyl'.repeat(40) })).items).toEqual([]);
    expect(await namesFor(h, h.a.member.token, { q: Array.from({ length: 30 }, () => 'thy').join(' ') })).toEqual([
      'Dimethyl sulfoxide',
      'Ethyl acetate',
    ]);
  });
});
