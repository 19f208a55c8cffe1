import { describe, expect, it } from 'vitest';
import { createType } from '../../../src/types/service.js';
import { linkPages } from '../../helpers/shapes.js';
import { useHarness } from '../../helpers/use-harness.js';

// GET /types?q= (docs/api.md): the type pickers search the server. Org A has Reagent (legacy lab), Antibody
// (migrated lab) and Buffer (other lab) from the fixtures.

const h = useHarness({}, async (h) => {
  for (const name of ['50% Glycerol', 'Tris_HCl', 'TrisXHCl', 'Äther', 'Buffer salts']) {
    await createType(h.deps, h.a.admin.actor, { labId: h.a.otherLab.id, name });
  }
});

const names = async (query: string, token = h.a.admin.token) => {
  const res = await h.call(token, { method: 'GET', url: `/types${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().map((t: { name: string }) => t.name);
};

describe('GET /types?q= (happy)', () => {
  it('finds text inside a word, whatever its case (every letter: the stored name key is folded like the text)', async () => {
    expect(await names('?q=TIBO')).toEqual(['Antibody']);
    expect(await names('?q=uFf')).toEqual(['Buffer', 'Buffer salts']);
    expect(await names(`?q=${encodeURIComponent('äTH')}`)).toEqual(['Äther']);
  });

  it('trims the text; empty or blank filters nothing', async () => {
    const all = await names('?per_page=100');
    expect(all).toHaveLength(8);
    expect(await names('?q=&per_page=100')).toEqual(all);
    expect(await names(`?q=${encodeURIComponent('  ')}&per_page=100`)).toEqual(all);
    expect(await names(`?q=${encodeURIComponent(' reag ')}`)).toEqual(['Reagent']);
  });

  it('% and _ match only themselves', async () => {
    expect(await names(`?q=${encodeURIComponent('%')}`)).toEqual(['50% Glycerol']);
    expect(await names('?q=s_h')).toEqual(['Tris_HCl']);
    expect(await names('?q=_')).toEqual(['Tris_HCl']);
  });

  it('pages the filtered list: X-Total-Count and Link count only the matches and keep q', async () => {
    const expected = (await names('?per_page=100')).filter((n: string) => n.toLowerCase().includes('r'));
    expect(expected.length).toBeGreaterThan(3);
    const seen: string[] = [];
    for (let page = 1; page <= expected.length; page += 1) {
      const res = await h.call(h.a.admin.token, { method: 'GET', url: `/types?q=R&per_page=1&page=${page}` });
      expect(res.headers['x-total-count']).toBe(String(expected.length));
      seen.push(...res.json().map((t: { name: string }) => t.name));
      const links = linkPages(res.headers.link);
      expect(links.last?.page).toBe(expected.length);
      expect(links.last?.url.searchParams.get('q')).toBe('R');
    }
    expect(seen).toEqual(expected);
  });

  it('combines with lab_id and name', async () => {
    expect(await names(`?q=e&lab_id=${h.a.legacyLab.id}`)).toEqual(['Reagent']);
    expect(await names(`?q=e&lab_id=${h.a.migratedLab.id}`)).toEqual([]);
    expect(await names('?q=buff&name=buffer')).toEqual(['Buffer']);
  });
});
