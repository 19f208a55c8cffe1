import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../helpers/harness.js';

// POST /webhooks/{id}/ping refusals: 409 for a disabled webhook, 422/404/401 as everywhere; no event and no
// delivery is created by a refused ping.

let h: Harness;
let hook: { id: string };
beforeAll(async () => {
  h = await startHarness();
  hook = (await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/keep' } })).json();
});
afterAll(() => h?.close());

const snapshot = async () => ({
  webhooks: await h.deps.db.selectFrom('webhooks').selectAll().orderBy('id').execute(),
  deliveries: await h.deps.db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute(),
  events: await h.deps.db.selectFrom('events').selectAll().orderBy('id').execute(),
});

async function refused(opts: { token?: string | null; id?: string }, status: number, code: string) {
  const before = await snapshot();
  const token = opts.token === undefined ? h.a.admin.token : opts.token;
  const res = await h.call(token, { method: 'POST', url: `/webhooks/${opts.id ?? hook.id}/ping` });
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ code, message: expect.any(String), request_id: res.headers['x-request-id'] });
  expect(await snapshot()).toEqual(before);
  return res.json() as { message: string; errors?: { field: string }[] };
}

const setEnabled = async (id: string, is_enabled: boolean) => {
  const res = await h.call(h.a.admin.token, { method: 'PUT', url: `/webhooks/${id}`, payload: { is_enabled } });
  expect(res.statusCode, res.body).toBe(200);
};

describe('POST /webhooks/{id}/ping errors', () => {
  it('a webhook disabled by a user: 409, no event, no delivery', async () => {
    await setEnabled(hook.id, false);
    try {
      const body = await refused({}, 409, 'conflict');
      expect(body.message).toMatch(/disabled/i);
    } finally {
      await setEnabled(hook.id, true);
    }
  });

  it('a webhook created disabled: 409', async () => {
    const off = (await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/off', is_enabled: false } })).json();
    await refused({ id: off.id }, 409, 'conflict');
  });

  it('a webhook disabled by the service (receiver answered 410): 409', async () => {
    const auto = (await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/gone' } })).json();
    await h.deps.db.updateTable('webhooks').set({ is_enabled: 0, disabled_reason: 'the receiver answered 410 Gone' }).where('id', '=', auto.id).execute();
    await refused({ id: auto.id }, 409, 'conflict');
  });

  it.each(['abc', '42', '00000000-0000-4000-8000-0000000000zz'])('id %s is not a uuid: 422 naming id', async (id) => {
    const body = await refused({ id }, 422, 'validation_failed');
    expect((body.errors ?? []).map((e) => e.field)).toContain('id');
  });

  it('an unknown uuid or a deleted webhook: 404', async () => {
    await refused({ id: '00000000-0000-4000-8000-000000000000' }, 404, 'not_found');
    const gone = (await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/deleted' } })).json();
    expect((await h.call(h.a.admin.token, { method: 'DELETE', url: `/webhooks/${gone.id}` })).statusCode).toBe(204);
    await refused({ id: gone.id }, 404, 'not_found');
  });

  it('no token or an unknown one: 401', async () => {
    await refused({ token: null }, 401, 'unauthorized');
    await refused({ token: 'lst_unknown' }, 401, 'unauthorized');
  });

  it('control: the enabled webhook is pinged (202), creating one event and one delivery', async () => {
    const before = await snapshot();
    const res = await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${hook.id}/ping` });
    expect(res.statusCode, res.body).toBe(202);
    const after = await snapshot();
    expect(after.events.length - before.events.length).toBe(1);
    expect(after.deliveries.length - before.deliveries.length).toBe(1);
  });
});
