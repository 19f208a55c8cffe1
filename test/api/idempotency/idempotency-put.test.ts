// Idempotency-Key on PUT (docs/api.md, "Idempotency-Key"; issue 23): the web application's status moves, quantity
// sets, webhook edits and settings are sent once. A retried PUT with its key gets the first answer and never undoes
// a change made in between; the same key with another body is 422; keys stay per credential; the password change
// does not take one. On SQLite and PostgreSQL alike (DATABASE_URL).

import { describe, expect, it } from 'vitest';
import { addItem } from '../../helpers/data.js';
import { expectError } from '../../helpers/errors.js';
import { createOrder, orderBody } from '../../helpers/orders.js';
import { givePassword, PASSWORD, type Session, signIn, withSession } from '../../helpers/sessions.js';
import { useHarness } from '../../helpers/use-harness.js';
import { isReplay, keyed, quantityOf } from './_helpers.js';

let session: Session;
const h = useHarness({}, async (h) => {
  await givePassword(h, h.a.admin.id);
  session = await signIn(h, h.a.admin.email);
});

const setQuantity = (itemId: string, quantity: string) => ({
  method: 'PUT' as const,
  url: `/inventory-items/${itemId}`,
  payload: { quantity },
});

async function newWebhook(name: string): Promise<{ id: string; name: string }> {
  const res = await h.call(h.a.admin.token, {
    method: 'POST',
    url: '/webhooks',
    payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/put', is_enabled: false, name },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const claimsFor = (path: string) =>
  h.deps.db.selectFrom('idempotency_keys').select('key').where('path', '=', path).where('method', '=', 'PUT').execute();

describe('PUT with an Idempotency-Key (happy)', () => {
  it('a retried quantity PUT answers the first answer and does not undo a change made in between', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Set once', quantity: '1' });
    const first = await withSession(h, session, keyed('put-quantity', setQuantity(item.id, '5')));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().quantity).toBe('5');
    // Someone else sets 7 meanwhile; the browser's retry of "5" must not put 5 back.
    expect((await h.call(h.a.admin.token, setQuantity(item.id, '7'))).statusCode).toBe(200);
    const retry = await withSession(h, session, keyed('put-quantity', setQuantity(item.id, '5')));
    expect(retry.statusCode).toBe(200);
    expect(isReplay(retry)).toBe(true);
    expect(retry.body).toBe(first.body);
    expect(await quantityOf(h, h.a.admin.token, item.id)).toBe('7');
  });

  it('a webhook edit sent twice at once (a double-click) with one key is applied once; a later retry is its replay', async () => {
    const hook = await newWebhook('Before edit');
    const edit = keyed('edit-hook', { method: 'PUT', url: `/webhooks/${hook.id}`, payload: { name: 'After edit' } });
    const results = await Promise.all([withSession(h, session, edit), withSession(h, session, edit)]);
    for (const r of results) expect([200, 409], r.body).toContain(r.statusCode);
    expect(results.some((r) => r.statusCode === 200)).toBe(true);
    const later = await withSession(h, session, edit);
    expect(later.statusCode).toBe(200);
    expect(isReplay(later)).toBe(true);
    expect(later.json().name).toBe('After edit');
    expect(await claimsFor(`/webhooks/${hook.id}`)).toHaveLength(1);
  });

  it('an order request status move retried with its key is replayed, not moved again', async () => {
    const { id } = await createOrder(h, h.a.admin.token, orderBody(h.a.legacyLab));
    const move = keyed('move-once', { method: 'PUT', url: `/order-requests/${id}`, payload: { status: 'ORDERED' } });
    const first = await withSession(h, session, move);
    expect(first.statusCode, first.body).toBe(200);
    const again = await withSession(h, session, move);
    expect(isReplay(again)).toBe(true);
    expect(again.body).toBe(first.body);
    const history = (await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/${id}/history` })).json();
    expect(history.filter((e: unknown) => JSON.stringify(e).includes('"ORDERED"'))).toHaveLength(1);
  });
});

describe('PUT with an Idempotency-Key (errors)', () => {
  it('the same key with another PUT body is 422 idempotency_key_reused and changes nothing', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Reused key', quantity: '1' });
    expect((await h.call(h.a.admin.token, keyed('put-reused', setQuantity(item.id, '3')))).statusCode).toBe(200);
    expectError(await h.call(h.a.admin.token, keyed('put-reused', setQuantity(item.id, '4'))), 422, 'idempotency_key_reused');
    expect(await quantityOf(h, h.a.admin.token, item.id)).toBe('3');
  });

  it('a password change does not take the key: nothing of it is claimed, and the key stays free', async () => {
    const change = await withSession(
      h,
      session,
      keyed('password-key', {
        method: 'PUT',
        url: '/user/password',
        payload: { current_password: PASSWORD, new_password: PASSWORD },
      }),
    );
    expect(change.statusCode, change.body).toBe(204);
    expect(await claimsFor('/user/password')).toEqual([]);
  });
});

describe('PUT with an Idempotency-Key (security)', () => {
  it("another organization's token sending A's exact PUT with A's key gets 404, not A's stored answer", async () => {
    const hook = await newWebhook('Private hook');
    const edit = keyed('shared-put', { method: 'PUT', url: `/webhooks/${hook.id}`, payload: { name: 'Renamed privately' } });
    expect((await h.call(h.a.admin.token, edit)).statusCode).toBe(200);
    const theirs = await h.call(h.b.admin.token, edit);
    expectError(theirs, 404, 'not_found');
    expect(isReplay(theirs)).toBe(false);
    expect(theirs.body).not.toContain('Renamed privately');
  });
});
