// GET /inventory-items?q without lab_id (docs/product.md §3 and §14): every lab the caller may see, and only those.
// Another organization's items never appear; a member sees the labs they belong to (an org admin every lab of the
// org); a lab_id the caller may not see gives [] and a total of 0, never its items.
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem } from './_helpers.js';
import { listItems } from './_search.js';

const h = useHarness({}, async (h) => {
  // The same words in every lab of both organizations.
  for (const [org, labs] of [
    [h.a, [h.a.legacyLab.id, h.a.migratedLab.id, h.a.otherLab.id]],
    [h.b, [h.b.legacyLab.id, h.b.migratedLab.id, h.b.otherLab.id]],
  ] as const)
    for (const labId of labs)
      await addItem(h, org.admin.actor, { labId, name: `Dimethyl sulfoxide ${labId.slice(-6)}`, catalogNumber: 'GR3323', quantity: '1' });
});

const labsOf = (r: { items: any[] }) => new Set(r.items.map((i) => i.lab.id));

describe('GET /inventory-items?q across labs (security)', () => {
  it("a member finds the substring in their two labs only: never the org's other lab, never another organization", async () => {
    for (const q of ['ethyl', 'R332', 'gr', 'sulfox 3323']) {
      const r = await listItems(h, h.a.member.token, { q });
      expect(r.status, r.body).toBe(200);
      expect(labsOf(r), q).toEqual(new Set([h.a.legacyLab.id, h.a.migratedLab.id]));
      expect(r.total, q).toBe(r.items.length);
    }
  });

  it("an org admin finds it in every lab of the organization, and never in another organization's", async () => {
    const r = await listItems(h, h.a.admin.token, { q: 'ethyl' });
    expect(labsOf(r)).toEqual(new Set([h.a.legacyLab.id, h.a.migratedLab.id, h.a.otherLab.id]));
    const b = await listItems(h, h.b.admin.token, { q: 'ethyl' });
    expect(labsOf(b)).toEqual(new Set([h.b.legacyLab.id, h.b.migratedLab.id, h.b.otherLab.id]));
  });

  it('a member of no lab finds nothing; a lab_id not visible gives [] and 0, with or without a substring', async () => {
    const none = await listItems(h, h.a.outsider.token, { q: 'ethyl' });
    expect(none.items).toEqual([]);
    expect(none.total).toBe(0);
    for (const lab_id of [h.a.otherLab.id, h.b.legacyLab.id, h.b.migratedLab.id]) {
      for (const q of ['ethyl', 'gr']) {
        const r = await listItems(h, h.a.member.token, { q, lab_id });
        expect(r.status).toBe(200);
        expect(r.items, `${lab_id} ${q}`).toEqual([]);
        expect(r.total).toBe(0);
      }
    }
  });

  it("another organization's words are not found through a substring of them, and the body never holds them", async () => {
    const foreign = await addItem(h, h.b.admin.actor, { labId: h.b.legacyLab.id, name: 'Zirconium oxychloride', quantity: '1' });
    for (const q of ['irconium', 'oxychlor', 'zi']) {
      const r = await listItems(h, h.a.admin.token, { q });
      expect(r.items, q).toEqual([]);
      expect(r.body).not.toContain(foreign.id);
    }
    expect((await listItems(h, h.b.admin.token, { q: 'irconium' })).ids).toEqual([foreign.id]);
  });
});
