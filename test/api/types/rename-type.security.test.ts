// PUT /types/{id} {name}: docs/product.md §5 (types rename) and §7 (type.updated; same name: no event).

import { describe, expect, it } from 'vitest';
import { revokedToken } from '../../helpers/data.js';
import { expectError } from '../../helpers/errors.js';
import { typeFixture } from '../../helpers/types.js';
import { useHarness } from '../../helpers/use-harness.js';
import { legacyLabManager, MANAGERS_ONLY } from './_managers.js';

const h = useHarness();
const { unchangedPut: unchanged } = typeFixture(h);

describe('PUT /types/{id} (security)', () => {
  it('401 without a token, with an unknown token and with a revoked token; nothing changes', async () => {
    const revoked = await revokedToken(h, h.a);
    for (const token of [null, 'lst_unknown', revoked]) {
      expectError(await unchanged(token, h.a.legacyLab.typeId, { name: 'Nope' }), 401, 'unauthorized');
    }
  });

  it('org A tokens get 404 for org B types, which keep their names', async () => {
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const id of [h.b.legacyLab.typeId, h.b.migratedLab.typeId, h.b.otherLab.typeId]) {
        expectError(await unchanged(token, id, { name: 'Hijacked' }), 404, 'not_found');
      }
    }
    const names = (await h.call(h.b.admin.token, { method: 'GET', url: '/types' })).json().map((t: any) => t.name);
    expect(names).toEqual(['Reagent', 'Antibody', 'Buffer']);
  });

  it("the member gets 404 for the other lab's type; the outsider for every type", async () => {
    expectError(await unchanged(h.a.member.token, h.a.otherLab.typeId, { name: 'Sneaky' }), 404, 'not_found');
    for (const id of [h.a.legacyLab.typeId, h.a.migratedLab.typeId, h.a.otherLab.typeId]) {
      expectError(await unchanged(h.a.outsider.token, id, { name: 'Sneaky' }), 404, 'not_found');
    }
  });

  it('a member of the lab who is not its manager gets 403 saying who may; the name stays', async () => {
    const body = expectError(await unchanged(h.a.member.token, h.a.legacyLab.typeId, { name: 'Renamed by a member' }), 403, 'forbidden');
    expect(body.message).toBe(MANAGERS_ONLY);
    // Even the name it already has: the member learns nothing by trying.
    const same = await h.call(h.a.admin.token, { method: 'GET', url: `/types?lab_id=${h.a.legacyLab.id}` });
    const current = same.json().find((t: { id: string }) => t.id === h.a.legacyLab.typeId).name;
    expectError(await unchanged(h.a.member.token, h.a.legacyLab.typeId, { name: current }), 403, 'forbidden');
  });

  it("a lab's manager gets 404 for the type of a lab they do not belong to", async () => {
    const manager = await legacyLabManager(h);
    expectError(await unchanged(manager.token, h.a.migratedLab.typeId, { name: 'Elsewhere' }), 404, 'not_found');
  });
});
