import { describe, expect, it } from 'vitest';
import { h, itRefusesWhileDisabled, itRequiresToken, keptWebhook, refusedBy, snapshotOf, useHarness } from './_security.js';

// POST /webhooks/{id}/replay refusals: 422 for bad or reversed date-times, missing or unknown fields; 409 for a
// disabled webhook; 400/415 for bodies that are not JSON; 404/401 as everywhere. Nothing is scheduled by any.

useHarness();
const hook = keptWebhook({}, async () => {
  // An event in the webhook's scope, so an accepted replay would have something to schedule.
  const put = await h.call(h.a.admin.token, { method: 'PUT', url: `/inventory-items/${h.a.legacyLab.itemId}`, payload: { quantity: '8' } });
  expect(put.statusCode).toBe(200);
});

const FROM = '2000-01-01T00:00:00.000Z';
const TO = '2999-01-01T00:00:00.000Z';

const snapshot = snapshotOf('webhooks', 'deliveries', 'events');

async function refused(
  opts: { payload?: unknown; body?: string; contentType?: string; token?: string | null; id?: string },
  status: number,
  code: string,
) {
  const headers: Record<string, string> = {};
  if (opts.contentType) headers['content-type'] = opts.contentType;
  const payload = opts.body ?? ((opts.payload ?? { from: FROM, to: TO }) as Record<string, unknown>);
  const send = (token: string | null) => h.call(token, { method: 'POST', url: `/webhooks/${opts.id ?? hook.id}/replay`, headers, payload });
  return refusedBy(send, opts.token, snapshot, status, code);
}
const fields = (body: { errors?: { field: string }[] }) => (body.errors ?? []).map((e) => e.field);

describe('POST /webhooks/{id}/replay errors', () => {
  it('to before from: 422 naming to', async () => {
    const body = await refused({ payload: { from: '2026-05-02T00:00:00.000Z', to: '2026-05-01T23:59:59.999Z' } }, 422, 'validation_failed');
    expect(fields(body)).toEqual(['to']);
  });

  it('to before from once offsets are applied: 422', async () => {
    // 10:00+02:00 is 08:00Z, before 09:00Z.
    const body = await refused({ payload: { from: '2026-05-01T09:00:00Z', to: '2026-05-01T10:00:00+02:00' } }, 422, 'validation_failed');
    expect(fields(body)).toEqual(['to']);
  });

  it.each([
    ['a date without a time', '2026-05-01'],
    ['no time zone', '2026-05-01T10:00:00'],
    ['words', 'yesterday'],
    ['empty', ''],
    ['month 13', '2026-13-01T00:00:00Z'],
    ['hour 25', '2026-05-01T25:00:00Z'],
    ['February 30', '2026-02-30T00:00:00Z'],
    ['a space instead of T and no zone', '2026-05-01 10:00:00'],
    ['epoch milliseconds as text', '1767225600000'],
  ])('from is %s (%s): 422 naming from', async (_label, from) => {
    expect(fields(await refused({ payload: { from, to: TO } }, 422, 'validation_failed'))).toContain('from');
  });

  it.each([
    ['a date without a time', '2026-05-01'],
    ['words', 'now'],
    ['minute 61', '2026-05-01T10:61:00Z'],
  ])('to is %s (%s): 422 naming to', async (_label, to) => {
    expect(fields(await refused({ payload: { from: FROM, to } }, 422, 'validation_failed'))).toContain('to');
  });

  it.each([
    ['a number', { from: 0, to: TO }, 'from'],
    ['null', { from: FROM, to: null }, 'to'],
    ['an object', { from: { at: FROM }, to: TO }, 'from'],
  ])('a date-time given as %s: 422', async (_label, payload, field) => {
    expect(fields(await refused({ payload }, 422, 'validation_failed'))).toContain(field);
  });

  it('missing from and to: 422 naming both', async () => {
    const body = await refused({ payload: {} }, 422, 'validation_failed');
    expect(fields(body)).toEqual(expect.arrayContaining(['from', 'to']));
  });

  it('an unknown field: 422 naming it', async () => {
    const body = await refused({ payload: { from: FROM, to: TO, event_types: ['order-request.*'] } }, 422, 'validation_failed');
    expect(fields(body)).toContain('event_types');
  });

  it('a body that is not an object: 422; malformed JSON: 400; not JSON: 415', async () => {
    for (const body of ['[]', '"x"', 'null']) await refused({ body, contentType: 'application/json' }, 422, 'validation_failed');
    await refused({ body: '{"from": "2026', contentType: 'application/json' }, 400, 'invalid_json');
    await refused({ body: `from=${FROM}&to=${TO}`, contentType: 'text/plain' }, 415, 'unsupported_media_type');
  });

  itRefusesWhileDisabled('a disabled webhook: 409 (enable it first), nothing scheduled', () => hook.id, refused);

  it('id not a uuid: 422; unknown uuid: 404', async () => {
    expect(fields(await refused({ id: 'abc' }, 422, 'validation_failed'))).toContain('id');
    await refused({ id: '00000000-0000-4000-8000-000000000000' }, 404, 'not_found');
  });

  itRequiresToken(refused);

  it('control: the same valid body is accepted and schedules the events of the range', async () => {
    const res = await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${hook.id}/replay`, payload: { from: FROM, to: TO } });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().scheduled).toBeGreaterThan(0);
  });
});
