import { describe, expect, it } from 'vitest';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const put = (payload: unknown) => h.call(h.a.member.token, { method: 'PUT', url: '/user/notifications', payload: payload as object });

describe('GET/PUT /user/notifications (errors)', () => {
  it('401 without credentials or with an unknown token', async () => {
    expectError(await h.call(null, { method: 'GET', url: '/user/notifications' }), 401, 'unauthorized');
    expectError(await h.call(null, { method: 'PUT', url: '/user/notifications', payload: { email_digest: false } }), 401, 'unauthorized');
    expectError(await h.call('lst_nope', { method: 'GET', url: '/user/notifications' }), 401, 'unauthorized');
  });

  it('422 for a missing or non-boolean email_digest and for an unknown field; nothing is stored', async () => {
    expectValidation(await put({}), 'email_digest');
    expectValidation(await put({ email_digest: 'no' }), 'email_digest');
    expectValidation(await put({ email_digest: null }), 'email_digest');
    expectValidation(await put({ email_digest: false, sms: true }), 'sms');
    const rows = await h.deps.db.selectFrom('digest_preferences').selectAll().execute();
    expect(rows).toEqual([]);
    expect((await h.call(h.a.member.token, { method: 'GET', url: '/user/notifications' })).json()).toEqual({ email_digest: true });
  });
});
