// Idempotency-Key refusals on POST and PATCH (docs/errors.md): another body under a used key is 422
// idempotency_key_reused and changes nothing; a malformed key is a field error; a create whose answer held a secret
// (a token) is not done again nor repeated (409 idempotency_key_completed).

import { describe, expect, it } from 'vitest';
import { addItem } from '../../helpers/data.js';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { givePassword, type Session, signIn, withSession } from '../../helpers/sessions.js';
import { useHarness } from '../../helpers/use-harness.js';
import { adjustmentsOf, keyed, quantityOf } from './_helpers.js';

let session: Session;
const h = useHarness({}, async (h) => {
  await givePassword(h, h.a.member.id);
  const email = (await h.call(h.a.member.token, { method: 'GET', url: '/user' })).json().email;
  session = await signIn(h, email);
});

const legacyItem = (name: string) => addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name, quantity: '4.5' });

describe('Idempotency-Key refusals', () => {
  it('the same key with another adjustment is 422 idempotency_key_reused and subtracts nothing more', async () => {
    const item = await legacyItem('Reused key');
    const url = `/inventory-items/${item.id}/adjustments`;
    expect((await h.call(h.a.member.token, keyed('k', { method: 'POST', url, payload: { delta: '-0.2' } }))).statusCode).toBe(200);
    expectError(
      await h.call(h.a.member.token, keyed('k', { method: 'POST', url, payload: { delta: '-0.5' } })),
      422,
      'idempotency_key_reused',
    );
    expect(await quantityOf(h, h.a.member.token, item.id)).toBe('4.3');
    expect(await adjustmentsOf(h, item.id)).toBe(1);
  });

  it('the same key on a PATCH with another body, or on another item, is 422 and changes nothing', async () => {
    const item = await legacyItem('Patched');
    const other = await legacyItem('Other');
    const first = await withSession(
      h,
      session,
      keyed('p', { method: 'PATCH', url: `/inventory-items/${item.id}`, payload: { vendor: 'A' } }),
    );
    expect(first.statusCode, first.body).toBe(200);
    expectError(
      await withSession(h, session, keyed('p', { method: 'PATCH', url: `/inventory-items/${item.id}`, payload: { vendor: 'B' } })),
      422,
      'idempotency_key_reused',
    );
    expectError(
      await withSession(h, session, keyed('p', { method: 'PATCH', url: `/inventory-items/${other.id}`, payload: { vendor: 'A' } })),
      422,
      'idempotency_key_reused',
    );
    expect((await h.call(h.a.member.token, { method: 'GET', url: `/inventory-items/${item.id}` })).json().vendor).toBe('A');
    expect((await h.call(h.a.member.token, { method: 'GET', url: `/inventory-items/${other.id}` })).json().vendor).toBeNull();
  });

  it('a malformed key on a PATCH is a field error and changes nothing', async () => {
    const item = await legacyItem('Malformed');
    const res = await h.call(h.a.member.token, {
      method: 'PATCH',
      url: `/inventory-items/${item.id}`,
      payload: { vendor: 'A' },
      headers: { 'idempotency-key': 'with space' },
    });
    expectValidation(res, 'Idempotency-Key');
    expect((await h.call(h.a.member.token, { method: 'GET', url: `/inventory-items/${item.id}` })).json().vendor).toBeNull();
  });

  it('a failed PATCH is not stored: the corrected retry under the same key does the work', async () => {
    const item = await legacyItem('Fails first');
    const bad = await h.call(h.a.member.token, {
      method: 'PATCH',
      url: `/inventory-items/${item.id}`,
      payload: { vendor: 'A' },
      headers: { 'idempotency-key': 'stale', 'if-match': '"nope"' },
    });
    expect(bad.statusCode).toBe(412);
    const ok = await h.call(
      h.a.member.token,
      keyed('stale', { method: 'PATCH', url: `/inventory-items/${item.id}`, payload: { vendor: 'A' } }),
    );
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('a token created from the browser twice with one key is made once; the retry is 409 without the secret', async () => {
    const count = async () => (await withSession(h, session, { method: 'GET', url: '/user/tokens' })).headers['x-total-count'];
    const before = Number(await count());
    const create = () => withSession(h, session, keyed('token-once', { method: 'POST', url: '/user/tokens', payload: { name: 'Laptop' } }));
    const [one, two] = await Promise.all([create(), create()]);
    const made = [one, two].filter((r) => r.statusCode === 201);
    expect(made).toHaveLength(1);
    const retry = await create();
    expectError(retry, 409, 'idempotency_key_completed');
    expect(retry.body).not.toContain(made[0]!.json().token);
    expect(Number(await count())).toBe(before + 1);
  });
});
