import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../helpers/harness.js';

// POST /webhooks/{id}/rotate-secret refusals: the standard error body, and the keys unchanged.

let h: Harness;
let hook: { id: string; signing_key: string };
beforeAll(async () => {
  h = await startHarness();
  hook = (await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/keep' } })).json();
});
afterAll(() => h?.close());

const snapshot = () => h.deps.db.selectFrom('webhooks').selectAll().orderBy('id').execute();

async function refused(opts: { token?: string | null; id?: string }, status: number, code: string) {
  const before = await snapshot();
  const token = opts.token === undefined ? h.a.admin.token : opts.token;
  const res = await h.call(token, { method: 'POST', url: `/webhooks/${opts.id ?? hook.id}/rotate-secret` });
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ code, message: expect.any(String), request_id: res.headers['x-request-id'] });
  expect(res.body).not.toContain('whsec_');
  expect(await snapshot()).toEqual(before);
  return res.json() as { errors?: { field: string }[] };
}

describe('POST /webhooks/{id}/rotate-secret errors', () => {
  it.each(['abc', '1', 'not-a-uuid-at-all-0000000000000000000'])('id %s is not a uuid: 422 naming id', async (id) => {
    const body = await refused({ id }, 422, 'validation_failed');
    expect((body.errors ?? []).map((e) => e.field)).toContain('id');
  });

  it('an unknown uuid: 404', async () => {
    await refused({ id: '00000000-0000-4000-8000-000000000000' }, 404, 'not_found');
  });

  it('no token or an unknown one: 401', async () => {
    await refused({ token: null }, 401, 'unauthorized');
    await refused({ token: 'lst_unknown' }, 401, 'unauthorized');
  });

  it('a deleted webhook: 404', async () => {
    const gone = (await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/gone' } })).json();
    expect((await h.call(h.a.admin.token, { method: 'DELETE', url: `/webhooks/${gone.id}` })).statusCode).toBe(204);
    await refused({ id: gone.id }, 404, 'not_found');
  });

  it('the key is still the one issued at create, with no previous key', async () => {
    const row = await h.deps.db.selectFrom('webhooks').selectAll().where('id', '=', hook.id).executeTakeFirstOrThrow();
    expect([row.signing_key, row.previous_signing_key, row.previous_key_expires_at]).toEqual([hook.signing_key, null, null]);
  });
});
