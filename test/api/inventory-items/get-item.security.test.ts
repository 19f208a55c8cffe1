import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, dbState, expectError, UNKNOWN_ID } from './_helpers.js';

let otherItemA: string;
const h = useHarness({}, async (h) => {
  otherItemA = (await addItem(h, h.a.admin.actor, { labId: h.a.otherLab.id, name: 'Secret buffer A', quantity: '9' })).id;
});

const getItem = (token: string, id: string) => h.call(token, { method: 'GET', url: `/inventory-items/${id}` });

describe('GET /inventory-items/{id} (security)', () => {
  it("org A's tokens get 404 for org B's items, with no data and no ETag", async () => {
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const id of [h.b.legacyLab.itemId, h.b.migratedLab.itemId]) {
        const res = await getItem(token, id);
        const body = expectError(res, 404, 'not_found');
        expect(body).not.toHaveProperty('quantity');
        expect(res.headers.etag).toBeUndefined();
        expect(res.body).not.toMatch(/Ethanol B|Anti-GFP B|Org B/);
      }
    }
  });

  it("org B's tokens get 404 for org A's items", async () => {
    for (const id of [h.a.legacyLab.itemId, h.a.migratedLab.itemId, otherItemA]) {
      expectError(await getItem(h.b.admin.token, id), 404, 'not_found');
    }
  });

  it('a member gets 404 for an item of a lab they do not belong to; the admin reads it', async () => {
    expectError(await getItem(h.a.member.token, otherItemA), 404, 'not_found');
    const admin = await getItem(h.a.admin.token, otherItemA);
    expect(admin.statusCode).toBe(200);
    expect(admin.json().name).toBe('Secret buffer A');
  });

  it('a user in no lab gets 404 for every item', async () => {
    for (const id of [h.a.legacyLab.itemId, h.a.migratedLab.itemId, otherItemA]) {
      expectError(await getItem(h.a.outsider.token, id), 404, 'not_found');
    }
  });

  it('a hidden item looks exactly like one that does not exist', async () => {
    const hidden = expectError(await getItem(h.a.admin.token, h.b.migratedLab.itemId), 404);
    const missing = expectError(await getItem(h.a.admin.token, UNKNOWN_ID), 404);
    expect(hidden.code).toBe(missing.code);
    expect(hidden.message).toBe(missing.message);
    expect(Object.keys(hidden).sort()).toEqual(Object.keys(missing).sort());
  });

  it('probing changes nothing', async () => {
    const before = await dbState(h);
    await getItem(h.a.admin.token, h.b.legacyLab.itemId);
    await getItem(h.a.member.token, otherItemA);
    expect(await dbState(h)).toEqual(before);
  });
});
