// POST /types {lab_id, name}: docs/product.md §5 (types create) and §7 (type.created, data.type with lab).

import { describe, expect, it } from 'vitest';
import { revokedToken } from '../../helpers/data.js';
import { expectError } from '../../helpers/errors.js';
import { typeFixture } from '../../helpers/types.js';
import { useHarness } from '../../helpers/use-harness.js';
import { legacyLabManager, MANAGERS_ONLY } from './_managers.js';

const h = useHarness();
const { unchangedPost: unchanged } = typeFixture(h);

describe('POST /types (security)', () => {
  it('401 without a token, with an unknown token and with a revoked token; nothing written', async () => {
    const revoked = await revokedToken(h, h.a);
    for (const token of [null, 'lst_unknown', revoked]) {
      expectError(await unchanged(token, { lab_id: h.a.legacyLab.id, name: 'Unauthorized' }), 401, 'unauthorized');
    }
  });

  it('org A tokens get 404 for every org B lab, and nothing is created there', async () => {
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const lab of [h.b.legacyLab, h.b.migratedLab, h.b.otherLab]) {
        expectError(await unchanged(token, { lab_id: lab.id, name: 'Intruder' }), 404, 'not_found');
      }
    }
    const bTypes = await h.call(h.b.admin.token, { method: 'GET', url: '/types?name=intruder' });
    expect(bTypes.json()).toEqual([]);
  });

  it('the member gets 404 for the lab they do not belong to; the outsider for every lab', async () => {
    expectError(await unchanged(h.a.member.token, { lab_id: h.a.otherLab.id, name: 'Sneaky' }), 404, 'not_found');
    for (const lab of [h.a.legacyLab, h.a.migratedLab, h.a.otherLab]) {
      expectError(await unchanged(h.a.outsider.token, { lab_id: lab.id, name: 'Sneaky' }), 404, 'not_found');
    }
  });

  it('a member of the lab who is not its manager gets 403 saying who may; nothing is created', async () => {
    const body = expectError(await unchanged(h.a.member.token, { lab_id: h.a.legacyLab.id, name: 'Member type' }), 403, 'forbidden');
    expect(body.message).toBe(MANAGERS_ONLY);
    expect((await h.call(h.a.admin.token, { method: 'GET', url: '/types?name=member%20type' })).json()).toEqual([]);
  });

  it("a lab's manager gets 404 for a lab they do not belong to: managing one lab is not managing another", async () => {
    const manager = await legacyLabManager(h);
    expectError(await unchanged(manager.token, { lab_id: h.a.migratedLab.id, name: 'Elsewhere' }), 404, 'not_found');
  });
});
