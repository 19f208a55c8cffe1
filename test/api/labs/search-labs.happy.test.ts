import { describe, expect, it } from 'vitest';
import { createLab } from '../../../src/labs/service.js';
import { expectLabShape, linkPages } from '../../helpers/shapes.js';
import { useHarness } from '../../helpers/use-harness.js';

// GET /labs?q= (docs/api.md): the lab pickers search the server.

const h = useHarness({}, async (h) => {
  for (const name of ['Cell culture', '100% Ethanol room', 'Mol_Bio', 'MolXBio']) {
    await createLab(h.deps.db, h.a.admin.actor, { organizationId: h.a.orgId, name });
  }
});

const names = async (query: string, token = h.a.admin.token) => {
  const res = await h.call(token, { method: 'GET', url: `/labs${query}` });
  expect(res.statusCode, res.body).toBe(200);
  for (const lab of res.json()) expectLabShape(lab);
  return res.json().map((l: { name: string }) => l.name);
};

describe('GET /labs?q= (happy)', () => {
  it('finds text inside a word, whatever its case', async () => {
    expect(await names('?q=GRAT')).toEqual(['Migrated lab A']);
    expect(await names('?q=ULTu')).toEqual(['Cell culture']);
  });

  it('trims the text; empty or blank filters nothing', async () => {
    const all = await names('');
    expect(all).toHaveLength(7);
    expect(await names('?q=')).toEqual(all);
    expect(await names(`?q=${encodeURIComponent('   ')}`)).toEqual(all);
    expect(await names(`?q=${encodeURIComponent('  lab a ')}`)).toEqual(['Legacy lab A', 'Migrated lab A', 'Other lab A']);
  });

  it('% and _ match only themselves', async () => {
    expect(await names(`?q=${encodeURIComponent('%')}`)).toEqual(['100% Ethanol room']);
    expect(await names('?q=_')).toEqual(['Mol_Bio']);
    // As LIKE wildcards, "l_b" would also find every "lab" and "MolXBio".
    expect(await names('?q=l_b')).toEqual(['Mol_Bio']);
  });

  it('pages the filtered list: X-Total-Count and Link count only the matches and keep q', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 3; page += 1) {
      const res = await h.call(h.a.admin.token, { method: 'GET', url: `/labs?q=LAB&per_page=1&page=${page}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-total-count']).toBe('3');
      seen.push(...res.json().map((l: { name: string }) => l.name));
      const links = linkPages(res.headers.link);
      expect(links.last?.page).toBe(3);
      expect(links.first?.url.searchParams.get('q')).toBe('LAB');
      if (page < 3) expect(links.next?.url.searchParams.get('q')).toBe('LAB');
    }
    expect(seen).toEqual(['Legacy lab A', 'Migrated lab A', 'Other lab A']);
  });

  it('combines with organization_id; a member searches only the labs they belong to', async () => {
    expect(await names(`?q=lab&organization_id=${h.a.orgId}`)).toEqual(['Legacy lab A', 'Migrated lab A', 'Other lab A']);
    expect(await names('?q=lab', h.a.member.token)).toEqual(['Legacy lab A', 'Migrated lab A']);
  });
});
