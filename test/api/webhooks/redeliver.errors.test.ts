import { beforeAll, describe, expect, it } from 'vitest';
import { h, itRefusesWhileDisabled, itRequiresToken, snapshotOf, useHarness } from './_security.js';

// POST /webhooks/{id}/deliveries/{deliveryId}/redeliver refusals: a disabled webhook 409; a delivery of another
// webhook 404; bad ids 422; 401 without a token. A refused redelivery queues nothing.

let hook: { id: string };
let other: { id: string };
let delivery: { id: string; event_id: string };
let otherDelivery: { id: string };
useHarness();
beforeAll(async () => {
  const make = async (url: string) =>
    (await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.a.orgId, url } })).json();
  hook = await make('https://hooks.example.org/keep');
  other = await make('https://hooks.example.org/other');
  delivery = (await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${hook.id}/ping` })).json();
  otherDelivery = (await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${other.id}/ping` })).json();
});

const snapshot = snapshotOf('webhooks', 'deliveries', 'events');

async function refused(opts: { token?: string | null; id?: string; deliveryId?: string }, status: number, code: string) {
  const before = await snapshot();
  const token = opts.token === undefined ? h.a.admin.token : opts.token;
  const res = await h.call(token, {
    method: 'POST',
    url: `/webhooks/${opts.id ?? hook.id}/deliveries/${opts.deliveryId ?? delivery.id}/redeliver`,
  });
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ code, message: expect.any(String), request_id: res.headers['x-request-id'] });
  expect(await snapshot()).toEqual(before);
  return res.json() as { message: string; errors?: { field: string }[] };
}

describe('POST /webhooks/{id}/deliveries/{deliveryId}/redeliver errors', () => {
  itRefusesWhileDisabled('a disabled webhook: 409, nothing queued', () => hook.id, refused);

  it('a delivery of another webhook of the same organization: 404 (either way round)', async () => {
    await refused({ deliveryId: otherDelivery.id }, 404, 'not_found');
    await refused({ id: other.id, deliveryId: delivery.id }, 404, 'not_found');
  });

  it('an event id is not a delivery id: 404', async () => {
    await refused({ deliveryId: delivery.event_id }, 404, 'not_found');
  });

  it('an unknown delivery or an unknown webhook: 404', async () => {
    await refused({ deliveryId: '00000000-0000-4000-8000-000000000000' }, 404, 'not_found');
    await refused({ id: '00000000-0000-4000-8000-000000000000' }, 404, 'not_found');
  });

  it("a deleted webhook's delivery: 404", async () => {
    const gone = (
      await h.call(h.a.admin.token, {
        method: 'POST',
        url: '/webhooks',
        payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/gone' },
      })
    ).json();
    const d = (await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${gone.id}/ping` })).json();
    expect((await h.call(h.a.admin.token, { method: 'DELETE', url: `/webhooks/${gone.id}` })).statusCode).toBe(204);
    await refused({ id: gone.id, deliveryId: d.id }, 404, 'not_found');
  });

  it.each([
    ['webhook id', { id: 'abc' }, 'id'],
    ['delivery id', { deliveryId: 'abc' }, 'deliveryId'],
    ['delivery id, almost a uuid', { deliveryId: '00000000-0000-4000-8000-00000000000' }, 'deliveryId'],
  ])('%s not a uuid: 422 naming it', async (_label, opts, field) => {
    const body = await refused(opts, 422, 'validation_failed');
    expect((body.errors ?? []).map((e) => e.field)).toContain(field);
  });

  itRequiresToken(refused);

  it('control: the same request on the enabled webhook queues exactly one new delivery of the same event', async () => {
    const before = await snapshot();
    const res = await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${hook.id}/deliveries/${delivery.id}/redeliver` });
    expect(res.statusCode, res.body).toBe(202);
    const after = await snapshot();
    expect(after.deliveries.length - before.deliveries.length).toBe(1);
    expect(after.events).toEqual(before.events);
    expect(after.deliveries.find((d) => d.id === res.json().id)).toMatchObject({
      webhook_id: hook.id,
      event_id: delivery.event_id,
      status: 'pending',
    });
  });
});
