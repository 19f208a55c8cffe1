import { describe, expect, it } from 'vitest';
import { dbState } from '../../helpers/data.js';
import { expectError } from '../../helpers/errors.js';
import { UNKNOWN_ID } from '../../helpers/shapes.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const getLab = (token: string, id: string) => h.call(token, { method: 'GET', url: `/labs/${id}` });

describe('GET /labs/{id} (security)', () => {
  it("org A's tokens get 404 for every lab of org B, with no data", async () => {
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const id of [h.b.legacyLab.id, h.b.migratedLab.id, h.b.otherLab.id]) {
        const res = await getLab(token, id);
        const body = expectError(res, 404, 'not_found');
        expect(body).not.toHaveProperty('name');
        expect(res.body).not.toContain('lab B');
        expect(res.body).not.toContain(h.b.orgId);
      }
    }
  });

  it("org B's tokens get 404 for org A's labs", async () => {
    for (const id of [h.a.legacyLab.id, h.a.migratedLab.id, h.a.otherLab.id]) {
      expectError(await getLab(h.b.admin.token, id), 404, 'not_found');
    }
  });

  it('a member gets 404 for the lab they do not belong to, which the admin can read', async () => {
    expectError(await getLab(h.a.member.token, h.a.otherLab.id), 404, 'not_found');
    expect((await getLab(h.a.admin.token, h.a.otherLab.id)).statusCode).toBe(200);
  });

  it('a user in no lab gets 404 for every lab', async () => {
    for (const id of [h.a.legacyLab.id, h.a.migratedLab.id, h.a.otherLab.id]) {
      expectError(await getLab(h.a.outsider.token, id), 404, 'not_found');
    }
  });

  it('a hidden lab looks exactly like a lab that does not exist', async () => {
    const hidden = expectError(await getLab(h.a.admin.token, h.b.legacyLab.id), 404);
    const missing = expectError(await getLab(h.a.admin.token, UNKNOWN_ID), 404);
    expect(hidden.code).toBe(missing.code);
    expect(hidden.message).toBe(missing.message);
    expect(Object.keys(hidden).sort()).toEqual(Object.keys(missing).sort());
  });

  it('probing changes nothing', async () => {
    const before = await dbState(h);
    await getLab(h.a.admin.token, h.b.legacyLab.id);
    expect(await dbState(h)).toEqual(before);
  });
});
