import { describe, expect, it } from 'vitest';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const create = (payload: unknown) => h.call(h.a.member.token, { method: 'POST', url: '/user/tokens', payload: payload as object });

describe('/user/tokens (errors)', () => {
  it('401 without credentials', async () => {
    expectError(await h.call(null, { method: 'GET', url: '/user/tokens' }), 401, 'unauthorized');
    expectError(await h.call(null, { method: 'POST', url: '/user/tokens', payload: { name: 'x' } }), 401, 'unauthorized');
  });

  it('422 for a missing or empty name, an unknown field, and an expiry that is malformed or not in the future', async () => {
    expectValidation(await create({}), 'name');
    expectValidation(await create({ name: '' }), 'name');
    expectValidation(await create({ name: '   ' }), 'name');
    expectValidation(await create({ name: 'x', scope: 'all' }), 'scope');
    expectValidation(await create({ name: 'x', expires_at: 'tomorrow' }), 'expires_at');
    expectValidation(await create({ name: 'x', expires_at: new Date(Date.now() - 1000).toISOString() }), 'expires_at');
    expect((await h.call(h.a.member.token, { method: 'GET', url: '/user/tokens' })).headers['x-total-count']).toBe('1');
  });

  it('DELETE of an unknown, malformed or already revoked id', async () => {
    expectError(await h.call(h.a.member.token, { method: 'DELETE', url: `/user/tokens/${crypto.randomUUID()}` }), 404, 'not_found');
    expectValidation(await h.call(h.a.member.token, { method: 'DELETE', url: '/user/tokens/nope' }), 'id');
    const created = (await create({ name: 'twice' })).json();
    expect((await h.call(h.a.member.token, { method: 'DELETE', url: `/user/tokens/${created.id}` })).statusCode).toBe(204);
    expectError(await h.call(h.a.member.token, { method: 'DELETE', url: `/user/tokens/${created.id}` }), 404, 'not_found');
  });

  it('Idempotency-Key makes one token: a retry is 409 idempotency_key_completed, and the secret is never stored', async () => {
    const headers = { 'idempotency-key': 'same-key' };
    const before = (await h.call(h.a.member.token, { method: 'GET', url: '/user/tokens' })).headers['x-total-count'];
    const one = await h.call(h.a.member.token, { method: 'POST', url: '/user/tokens', payload: { name: 'k' }, headers });
    const two = await h.call(h.a.member.token, { method: 'POST', url: '/user/tokens', payload: { name: 'k' }, headers });
    expect(one.statusCode).toBe(201);
    expectError(two, 409, 'idempotency_key_completed');
    expect(two.body).not.toContain(one.json().token);
    expect((await h.call(h.a.member.token, { method: 'GET', url: '/user/tokens' })).headers['x-total-count']).toBe(
      String(Number(before) + 1),
    );
    const stored = await h.deps.db.selectFrom('idempotency_keys').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(one.json().token);
    // Another body under the same key is still 422, and a new key makes a new token.
    expectError(
      await h.call(h.a.member.token, { method: 'POST', url: '/user/tokens', payload: { name: 'other' }, headers }),
      422,
      'idempotency_key_reused',
    );
    const three = await h.call(h.a.member.token, {
      method: 'POST',
      url: '/user/tokens',
      payload: { name: 'k' },
      headers: { 'idempotency-key': 'another-key' },
    });
    expect(three.statusCode).toBe(201);
  });
});

describe('/organization/tokens (errors)', () => {
  it('a member is refused (403) the list and the revocation of their organization’s tokens', async () => {
    expectError(await h.call(h.a.member.token, { method: 'GET', url: '/organization/tokens' }), 403, 'forbidden');
    const adminTokens = (await h.call(h.a.admin.token, { method: 'GET', url: '/organization/tokens' })).json();
    const res = await h.call(h.a.member.token, { method: 'DELETE', url: `/organization/tokens/${adminTokens[0].id}` });
    expectError(res, 403, 'forbidden');
    expect((await h.call(h.a.admin.token, { method: 'GET', url: '/user' })).statusCode).toBe(200);
  });

  it('404 for an unknown id', async () => {
    expectError(await h.call(h.a.admin.token, { method: 'DELETE', url: `/organization/tokens/${crypto.randomUUID()}` }), 404, 'not_found');
  });
});
