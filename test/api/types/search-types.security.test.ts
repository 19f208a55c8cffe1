import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';

// Both organizations have types named Reagent, Antibody and Buffer (test/helpers/fixtures.ts).

const h = useHarness();

const list = (token: string | null, query: string) => h.call(token, { method: 'GET', url: `/types${query}` });

describe('GET /types?q= (security)', () => {
  it("another organization's types never appear, though they have the same names", async () => {
    const own: [string, string][] = [
      ['EAGEN', h.a.legacyLab.typeId],
      ['antibod', h.a.migratedLab.typeId],
      ['uffe', h.a.otherLab.typeId],
    ];
    for (const [q, id] of own) {
      const res = await list(h.a.admin.token, `?q=${q}`);
      expect(res.json().map((t: { id: string }) => t.id)).toEqual([id]);
      expect(res.headers['x-total-count']).toBe('1');
    }
    const other = await list(h.a.admin.token, `?q=e&lab_id=${h.b.legacyLab.id}`);
    expect(other.json()).toEqual([]);
    expect(other.headers['x-total-count']).toBe('0');
  });

  it("a member finds only their labs' types", async () => {
    const res = await list(h.a.member.token, '?q=n');
    expect(
      res
        .json()
        .map((t: { id: string }) => t.id)
        .sort(),
    ).toEqual([h.a.legacyLab.typeId, h.a.migratedLab.typeId].sort());
    expect(res.headers['x-total-count']).toBe('2');
    expect((await list(h.a.member.token, '?q=buffer')).json()).toEqual([]);
    expect((await list(h.a.member.token, `?q=buffer&lab_id=${h.a.otherLab.id}`)).json()).toEqual([]);
    expect((await list(h.a.outsider.token, '?q=e')).json()).toEqual([]);
  });

  it('401 without a token, q or not', async () => {
    expect((await list(null, '?q=e')).statusCode).toBe(401);
  });
});
