import { describe, expect, it } from 'vitest';
import { dbState, revokedToken } from '../../helpers/data.js';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

describe('GET /user (errors)', () => {
  it('401 unauthorized without a token, with the error body shape', async () => {
    const res = await h.call(null, { method: 'GET', url: '/user' });
    const body = expectError(res, 401, 'unauthorized');
    expect(body).not.toHaveProperty('id');
    expect(body).not.toHaveProperty('email');
  });

  it('401 with an unknown token', async () => {
    expectError(await h.call('lst_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', { method: 'GET', url: '/user' }), 401, 'unauthorized');
    expectError(await h.call('nonsense', { method: 'GET', url: '/user' }), 401, 'unauthorized');
  });

  it('401 with an empty Access-Token header', async () => {
    const res = await h.call(null, { method: 'GET', url: '/user', headers: { 'access-token': '' } });
    expectError(res, 401, 'unauthorized');
  });

  it("401 with a revoked token, while the user's other tokens keep working", async () => {
    const revoked = await revokedToken(h, h.a);
    expectError(await h.call(revoked, { method: 'GET', url: '/user' }), 401, 'unauthorized');
    expectError(await h.call(null, { method: 'GET', url: '/user', headers: { authorization: `Bearer ${revoked}` } }), 401, 'unauthorized');
    const other = await h.call(h.a.admin.token, { method: 'GET', url: '/user' });
    expect(other.statusCode).toBe(200);
  });

  it('401 with an unknown Bearer token or another Authorization scheme', async () => {
    expectError(await h.call(null, { method: 'GET', url: '/user', headers: { authorization: 'Bearer lst_unknown' } }), 401, 'unauthorized');
    expectError(
      await h.call(null, { method: 'GET', url: '/user', headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` } }),
      401,
      'unauthorized',
    );
    expectError(
      await h.call(null, { method: 'GET', url: '/user', headers: { authorization: `Token ${h.a.admin.token}` } }),
      401,
      'unauthorized',
    );
  });

  it('401 when the token has extra characters appended or is truncated', async () => {
    expectError(await h.call(`${h.a.admin.token}x`, { method: 'GET', url: '/user' }), 401, 'unauthorized');
    expectError(await h.call(h.a.admin.token.slice(0, -1), { method: 'GET', url: '/user' }), 401, 'unauthorized');
  });

  it('every request id differs between errors', async () => {
    const one = expectError(await h.call(null, { method: 'GET', url: '/user' }), 401);
    const two = expectError(await h.call(null, { method: 'GET', url: '/user' }), 401);
    expect(one.request_id).not.toBe(two.request_id);
  });

  it('a 401 changes nothing', async () => {
    const before = await dbState(h);
    expectError(await h.call('lst_nope', { method: 'GET', url: '/user' }), 401);
    expect(await dbState(h)).toEqual(before);
  });
});
