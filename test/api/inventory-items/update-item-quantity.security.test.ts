import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, dbState, expectError, getItemJson, UNKNOWN_ID } from './_helpers.js';

let otherItemA: string;
const h = useHarness({}, async (h) => {
  otherItemA = (await addItem(h, h.a.admin.actor, { labId: h.a.otherLab.id, name: 'Secret buffer A', quantity: '9' })).id;
});

/** PUTs as `token` and asserts a 404 without data, with the item (read by `readerToken`) and the database untouched. */
async function expectHidden(
  token: string,
  itemId: string,
  readerToken: string,
  headers: Record<string, string> = {},
  payload: unknown = { quantity: '123' },
) {
  const before = await getItemJson(h, readerToken, itemId);
  expect(before.status).toBe(200);
  const state = await dbState(h);
  const res = await h.call(token, { method: 'PUT', url: `/inventory-items/${itemId}`, payload: payload as any, headers });
  const body = expectError(res, 404, 'not_found');
  expect(body).not.toHaveProperty('quantity');
  expect(res.headers.etag).toBeUndefined();
  expect(res.body).not.toContain(before.body.name);
  expect(await dbState(h)).toEqual(state);
  const after = await getItemJson(h, readerToken, itemId);
  expect(after.body).toEqual(before.body);
  expect(after.etag).toBe(before.etag);
  return body;
}

describe('PUT /inventory-items/{id} (security)', () => {
  it("org A's tokens get 404 for org B's legacy item and change nothing", async () => {
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token])
      await expectHidden(token, h.b.legacyLab.itemId, h.b.admin.token);
  });

  it("org B's migrated item gives 404, not 409 (a 409 would reveal that it exists)", async () => {
    await expectHidden(h.a.admin.token, h.b.migratedLab.itemId, h.b.admin.token);
  });

  it('If-Match does not turn a hidden item into 200 or 412', async () => {
    const { etag } = await getItemJson(h, h.b.admin.token, h.b.legacyLab.itemId);
    await expectHidden(h.a.admin.token, h.b.legacyLab.itemId, h.b.admin.token, { 'if-match': '*' });
    await expectHidden(h.a.admin.token, h.b.legacyLab.itemId, h.b.admin.token, { 'if-match': etag! });
    await expectHidden(h.a.admin.token, h.b.legacyLab.itemId, h.b.admin.token, { 'if-match': '"stale"' });
  });

  it('an empty body on a hidden item is 404 too (never the item itself)', async () => {
    await expectHidden(h.a.admin.token, h.b.legacyLab.itemId, h.b.admin.token, {}, {});
  });

  it("org B's tokens get 404 for org A's items", async () => {
    for (const id of [h.a.legacyLab.itemId, h.a.migratedLab.itemId, otherItemA]) await expectHidden(h.b.admin.token, id, h.a.admin.token);
  });

  it('a member gets 404 for an item of a lab they do not belong to, which the admin may update', async () => {
    await expectHidden(h.a.member.token, otherItemA, h.a.admin.token);
    const admin = await h.call(h.a.admin.token, { method: 'PUT', url: `/inventory-items/${otherItemA}`, payload: { quantity: '10' } });
    expect(admin.statusCode).toBe(200);
    expect(admin.json().quantity).toBe('10');
  });

  it('a user in no lab gets 404 for every item', async () => {
    for (const id of [h.a.legacyLab.itemId, otherItemA]) await expectHidden(h.a.outsider.token, id, h.a.admin.token);
  });

  it("a hidden item's 404 is the same as an unknown item's", async () => {
    const hidden = await expectHidden(h.a.admin.token, h.b.legacyLab.itemId, h.b.admin.token);
    const missing = expectError(
      await h.call(h.a.admin.token, { method: 'PUT', url: `/inventory-items/${UNKNOWN_ID}`, payload: { quantity: '123' } }),
      404,
    );
    expect(hidden.code).toBe(missing.code);
    expect(hidden.message).toBe(missing.message);
  });

  it("no event of org A's attempts reaches org B's outbox", async () => {
    const rows = await h.deps.db.selectFrom('events').select(['payload']).where('organization_id', '=', h.b.orgId).execute();
    for (const r of rows) expect(r.payload).not.toContain('"quantity":"123"');
  });
});
