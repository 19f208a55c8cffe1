// GET /inventory-items/{id}/history: docs/product.md §5 (per-item history: who changed what, when, old → new).
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, expectError, revokedToken, UUID_RE } from './_helpers.js';
import { HISTORY_KEYS } from './_history.js';

const h = useHarness();

const DATETIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const history = (token: string | null, id: string) => h.call(token, { method: 'GET', url: `/inventory-items/${id}/history` });

async function historyOk(id: string, token = h.a.admin.token): Promise<any[]> {
  const res = await history(token, id);
  expect(res.statusCode, res.body).toBe(200);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  const body = res.json();
  expect(Array.isArray(body)).toBe(true);
  for (const e of body) {
    expect(Object.keys(e).sort()).toEqual(HISTORY_KEYS);
    expect(e.id).toMatch(UUID_RE);
    expect(e.changed_at).toMatch(DATETIME_RE);
  }
  return body;
}

async function call(token: string, method: 'POST' | 'PUT' | 'PATCH', url: string, payload: unknown): Promise<any> {
  const res = await h.call(token, { method, url, payload: payload as any });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json();
}

describe('GET /inventory-items/{id}/history (security)', () => {
  it('401 without a token, with an unknown token and with a revoked token', async () => {
    const revoked = await revokedToken(h, h.a);
    for (const token of [null, 'lst_unknown', revoked]) expectError(await history(token, h.a.legacyLab.itemId), 401, 'unauthorized');
  });

  it('org A tokens get 404 for org B items, even ones with history', async () => {
    const put = await h.call(h.b.admin.token, {
      method: 'PUT',
      url: `/inventory-items/${h.b.legacyLab.itemId}`,
      payload: { quantity: '4' },
    });
    expect(put.statusCode).toBe(200);
    expect(await historyOk(h.b.legacyLab.itemId, h.b.admin.token)).toHaveLength(1);
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const id of [h.b.legacyLab.itemId, h.b.migratedLab.itemId]) expectError(await history(token, id), 404, 'not_found');
    }
  });

  it('the member gets 404 for an item of the lab they do not belong to; the outsider for every item', async () => {
    const hidden = await addItem(h, h.a.admin.actor, { labId: h.a.otherLab.id, name: 'Hidden', quantity: '1' });
    await call(h.a.admin.token, 'PATCH', `/inventory-items/${hidden.id}`, { name: 'Hidden, changed' });
    expect(await historyOk(hidden.id)).toHaveLength(1);
    expectError(await history(h.a.member.token, hidden.id), 404, 'not_found');
    for (const id of [hidden.id, h.a.legacyLab.itemId, h.a.migratedLab.itemId])
      expectError(await history(h.a.outsider.token, id), 404, 'not_found');
  });
});
