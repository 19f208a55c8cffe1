import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const list = (token: string | null, query = '') => h.call(token, { method: 'GET', url: `/types${query}` });
const ids = (res: { json(): any }): string[] => res.json().map((t: any) => t.id);

describe('GET /types tenancy', () => {
  it("org A never sees org B's types, even with the same name", async () => {
    const res = await list(h.a.admin.token, '?per_page=100');
    expect(ids(res)).toEqual([h.a.legacyLab.typeId, h.a.migratedLab.typeId, h.a.otherLab.typeId]);
    for (const t of res.json()) expect(t.lab.organization.id).toBe(h.a.orgId);
    // Both orgs have a "Reagent"; the name filter finds only the caller's.
    const byName = await list(h.a.admin.token, '?name=reagent');
    expect(ids(byName)).toEqual([h.a.legacyLab.typeId]);
    const bByName = await list(h.b.admin.token, '?name=reagent');
    expect(ids(bByName)).toEqual([h.b.legacyLab.typeId]);
  });

  it('lab_id of an org B lab gives [] to every org A token', async () => {
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const lab of [h.b.legacyLab, h.b.migratedLab, h.b.otherLab]) {
        const res = await list(token, `?lab_id=${lab.id}`);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual([]);
        expect(res.headers['x-total-count']).toBe('0');
      }
    }
  });
});

describe('GET /types within an organization', () => {
  it("a member sees the types of their labs, not the other lab's", async () => {
    const res = await list(h.a.member.token);
    expect(ids(res)).toEqual([h.a.legacyLab.typeId, h.a.migratedLab.typeId]);
    expect(res.headers['x-total-count']).toBe('2');
    const other = await list(h.a.member.token, `?lab_id=${h.a.otherLab.id}`);
    expect(other.json()).toEqual([]);
    const byName = await list(h.a.member.token, '?name=buffer');
    expect(byName.json()).toEqual([]);
  });

  it('an outsider (no labs) sees []', async () => {
    for (const query of ['', `?lab_id=${h.a.legacyLab.id}`, '?name=Reagent']) {
      const res = await list(h.a.outsider.token, query);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
      expect(res.headers['x-total-count']).toBe('0');
    }
  });
});

describe('GET /types authentication', () => {
  it('401 without a token or with an unknown one', async () => {
    const none = await list(null);
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe('unauthorized');
    expect(none.body).not.toContain('Reagent');
    const bogus = await list('nope');
    expect(bogus.statusCode).toBe(401);
  });
});
