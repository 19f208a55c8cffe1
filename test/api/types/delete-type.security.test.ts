// DELETE /types/{id}: docs/product.md §5 (types delete) and §7 (type.deleted with its last state); 409 while in use.
import { describe, expect, it } from 'vitest';
import { revokedToken } from '../../helpers/data.js';
import { expectError } from '../../helpers/errors.js';
import { typeFixture } from '../../helpers/types.js';
import { useHarness } from '../../helpers/use-harness.js';
import { legacyLabManager, MANAGERS_ONLY } from './_managers.js';

const h = useHarness();
const { newType, unchangedDel: unchanged, deletedEventsFor, typeRow } = typeFixture(h);

describe('DELETE /types/{id} (security)', () => {
  it('401 without a token, with an unknown token and with a revoked token; nothing changes', async () => {
    const type = await newType(h.a.legacyLab.id, 'Guarded');
    const revoked = await revokedToken(h, h.a);
    for (const token of [null, 'lst_unknown', revoked]) expectError(await unchanged(token, type.id), 401, 'unauthorized');
    expect(await typeRow(type.id)).toBeDefined();
  });

  it('org A tokens get 404 for an unused org B type, which stays', async () => {
    const res = await h.call(h.b.admin.token, { method: 'POST', url: '/types', payload: { lab_id: h.b.legacyLab.id, name: 'B only' } });
    expect(res.statusCode, res.body).toBe(201);
    const bType = res.json();
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      expectError(await unchanged(token, bType.id), 404, 'not_found');
    }
    expect(await typeRow(bType.id)).toBeDefined();
    expect(await deletedEventsFor(bType.id)).toEqual([]);
  });

  it("the member gets 404 (not 409) for the other lab's type; the outsider for an unused type of the member's lab", async () => {
    const unused = await newType(h.a.otherLab.id, 'Hidden unused');
    expectError(await unchanged(h.a.member.token, unused.id), 404, 'not_found');
    expectError(await unchanged(h.a.member.token, h.a.otherLab.typeId), 404, 'not_found');
    const legacyUnused = await newType(h.a.legacyLab.id, 'Outsider target');
    expectError(await unchanged(h.a.outsider.token, legacyUnused.id), 404, 'not_found');
    expect(await typeRow(unused.id)).toBeDefined();
    expect(await typeRow(legacyUnused.id)).toBeDefined();
  });

  it('a member of the lab who is not its manager gets 403 saying who may, for an unused type and a used one (not 409)', async () => {
    const unused = await newType(h.a.legacyLab.id, 'Member cannot delete');
    for (const id of [unused.id, h.a.legacyLab.typeId]) {
      const body = expectError(await unchanged(h.a.member.token, id), 403, 'forbidden');
      expect(body.message).toBe(MANAGERS_ONLY);
    }
    expect(await typeRow(unused.id)).toBeDefined();
    expect(await deletedEventsFor(unused.id)).toEqual([]);
  });

  it("a lab's manager gets 404 for an unused type of a lab they do not belong to", async () => {
    const manager = await legacyLabManager(h);
    const unused = await newType(h.a.migratedLab.id, 'Not their lab');
    expectError(await unchanged(manager.token, unused.id), 404, 'not_found');
    expect(await typeRow(unused.id)).toBeDefined();
  });
});
