import { beforeAll, describe, expect, it } from 'vitest';
import { createType } from '../../../src/types/service.js';
import { parseLink } from '../../helpers/shapes.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const list = (query = '', token = h.a.admin.token) => h.call(token, { method: 'GET', url: `/types${query}` });

describe('GET /types', () => {
  it('lists every visible type with {id, name, lab{id, name, organization, uses_instances}}', async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual([
      {
        id: h.a.legacyLab.typeId,
        name: 'Reagent',
        lab: { id: h.a.legacyLab.id, name: 'Legacy lab A', organization: { id: h.a.orgId, name: 'Org A' }, uses_instances: false },
      },
      {
        id: h.a.migratedLab.typeId,
        name: 'Antibody',
        lab: { id: h.a.migratedLab.id, name: 'Migrated lab A', organization: { id: h.a.orgId, name: 'Org A' }, uses_instances: true },
      },
      {
        id: h.a.otherLab.typeId,
        name: 'Buffer',
        lab: { id: h.a.otherLab.id, name: 'Other lab A', organization: { id: h.a.orgId, name: 'Org A' }, uses_instances: false },
      },
    ]);
    for (const t of body) {
      expect(Object.keys(t).sort()).toEqual(['id', 'lab', 'name']);
      expect(Object.keys(t.lab).sort()).toEqual(['id', 'name', 'organization', 'uses_instances']);
      expect(Object.keys(t.lab.organization).sort()).toEqual(['id', 'name']);
    }
    expect(res.headers['x-total-count']).toBe('3');
  });

  it('lab_id filters to one lab', async () => {
    const res = await list(`?lab_id=${h.a.migratedLab.id}`);
    expect(res.json().map((t: any) => t.id)).toEqual([h.a.migratedLab.typeId]);
    expect(res.headers['x-total-count']).toBe('1');
  });

  it('lab_id of an unknown lab gives []', async () => {
    const res = await list('?lab_id=0190a6f2-1111-7222-8333-444455556666');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it.each(['Reagent', 'reagent', 'REAGENT', 'rEaGeNt'])('name=%s finds "Reagent" (case-insensitive)', async (name) => {
    const res = await list(`?name=${name}`);
    expect(res.json().map((t: any) => t.id)).toEqual([h.a.legacyLab.typeId]);
  });

  it.each(['Reag', 'agent', 'Reagents', 'Reagent%25', '%25', '_eagent'])('name=%s is not an exact match: []', async (name) => {
    const res = await list(`?name=${name}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(res.headers['x-total-count']).toBe('0');
  });

  it('name and lab_id combine', async () => {
    const hit = await list(`?name=antibody&lab_id=${h.a.migratedLab.id}`);
    expect(hit.json().map((t: any) => t.id)).toEqual([h.a.migratedLab.typeId]);
    const miss = await list(`?name=antibody&lab_id=${h.a.legacyLab.id}`);
    expect(miss.json()).toEqual([]);
  });

  it('name matches across labs: one type per lab with that name', async () => {
    const second = await createType(h.deps, h.a.admin.actor, { labId: h.a.migratedLab.id, name: 'reagent' });
    const res = await list('?name=Reagent');
    expect(res.json().map((t: any) => [t.id, t.name, t.lab.id])).toEqual([
      [h.a.legacyLab.typeId, 'Reagent', h.a.legacyLab.id],
      [second.id, 'reagent', h.a.migratedLab.id],
    ]);
  });

  it('name with non-ASCII letters matches case-insensitively', async () => {
    const t = await createType(h.deps, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Lösung Ä' });
    const res = await list(`?name=${encodeURIComponent('LÖSUNG ä')}`);
    expect(res.json().map((x: any) => x.id)).toEqual([t.id]);
  });
});

describe('GET /types pagination', () => {
  beforeAll(async () => {
    for (let i = 1; i <= 26; i++)
      await createType(h.deps, h.a.admin.actor, { labId: h.a.otherLab.id, name: `Bulk ${String(i).padStart(2, '0')}` });
  });

  it('25 per page by default, X-Total-Count and Link, [] past the end', async () => {
    const p1 = await list(`?lab_id=${h.a.otherLab.id}`);
    expect(p1.json()).toHaveLength(25);
    expect(p1.headers['x-total-count']).toBe('27');
    const link = parseLink(p1.headers.link);
    expect(Object.keys(link).sort()).toEqual(['first', 'last', 'next']);
    expect(link.next!.searchParams.get('page')).toBe('2');
    expect(link.last!.searchParams.get('page')).toBe('2');
    expect(link.next!.searchParams.get('lab_id')).toBe(h.a.otherLab.id);
    expect(link.next!.pathname).toBe('/types');

    const p2 = await list(`?lab_id=${h.a.otherLab.id}&page=2`);
    expect(p2.json()).toHaveLength(2);
    expect(parseLink(p2.headers.link).prev!.searchParams.get('page')).toBe('1');
    // Creation order: Buffer first, then Bulk 01..26.
    const names = [...p1.json(), ...p2.json()].map((t: any) => t.name);
    expect(names).toEqual(['Buffer', ...Array.from({ length: 26 }, (_, i) => `Bulk ${String(i + 1).padStart(2, '0')}`)]);

    const p3 = await list(`?lab_id=${h.a.otherLab.id}&page=3`);
    expect(p3.statusCode).toBe(200);
    expect(p3.json()).toEqual([]);
  });

  it('per_page', async () => {
    const res = await list(`?lab_id=${h.a.otherLab.id}&per_page=5&page=6`);
    expect(res.json()).toHaveLength(2);
    const link = parseLink(res.headers.link);
    expect(link.last!.searchParams.get('page')).toBe('6');
    expect(link.last!.searchParams.get('per_page')).toBe('5');
    expect(link.next).toBeUndefined();
  });
});
