import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { itRefusesOtherMediaTypes } from '../../helpers/bodies.js';
import { useHarness } from '../../helpers/use-harness.js';
import { dbState, expectError, expectValidation, getItemJson, revokedToken, UNKNOWN_ID } from './_helpers.js';

const h = useHarness();

const url = () => `/inventory-items/${h.a.legacyLab.itemId}`;

/** Sends the request and asserts the item (as the API shows it) and the database stayed exactly as they were. */
async function unchanged(token: string | null, opts: InjectOptions, itemId = h.a.legacyLab.itemId) {
  const item = await getItemJson(h, h.a.admin.token, itemId);
  const state = await dbState(h);
  const res = await h.call(token, opts);
  expect(await dbState(h)).toEqual(state);
  const after = await getItemJson(h, h.a.admin.token, itemId);
  expect(after.body).toEqual(item.body);
  expect(after.etag).toBe(item.etag);
  return res;
}

describe('PUT /inventory-items/{id} (errors)', () => {
  it('401 without a token, with an unknown token and with a revoked token; nothing changes', async () => {
    const revoked = await revokedToken(h, h.a);
    for (const token of [null, 'lst_unknown', revoked]) {
      expectError(await unchanged(token, { method: 'PUT', url: url(), payload: { quantity: '99' } }), 401, 'unauthorized');
    }
    expectError(
      await unchanged(null, { method: 'PUT', url: url(), payload: { quantity: '99' }, headers: { authorization: 'Bearer lst_unknown' } }),
      401,
      'unauthorized',
    );
  });

  it.each(['abc', '1', 'not-a-uuid'])('422 naming id for a non-UUID id (%s)', async (id) => {
    expectValidation(await unchanged(h.a.admin.token, { method: 'PUT', url: `/inventory-items/${id}`, payload: { quantity: '1' } }), 'id');
  });

  it.each([
    ['"-1"', '-1'],
    ['"1e3"', '1e3'],
    ['"abc"', 'abc'],
    ['empty string', ''],
    ['" 1"', ' 1'],
    ['"1."', '1.'],
    ['".5"', '.5'],
    ['"1,5"', '1,5'],
    ['"+1"', '+1'],
    ['"NaN"', 'NaN'],
    ['"Infinity"', 'Infinity'],
    ['"0x10"', '0x10'],
    ['21 integer digits', '1'.repeat(21)],
    ['11 decimals', '0.12345678901'],
  ])('422 naming quantity for the decimal string %s', async (_label, quantity) => {
    expectValidation(await unchanged(h.a.admin.token, { method: 'PUT', url: url(), payload: { quantity } }), 'quantity');
  });

  it.each([
    ['the number 1', 1],
    ['the number 1.5', 1.5],
    ['null', null],
    ['true', true],
    ['an array', ['1']],
    ['an object', { amount: '1' }],
  ])('422 naming quantity for %s (quantities are strings)', async (_label, quantity) => {
    expectValidation(await unchanged(h.a.admin.token, { method: 'PUT', url: url(), payload: { quantity } as any }), 'quantity');
  });

  it('422 naming each unknown body field', async () => {
    const one = expectValidation(
      await unchanged(h.a.admin.token, { method: 'PUT', url: url(), payload: { quantity: '4', lot_number: 'X' } }),
      'lot_number',
    );
    expect(one.message).toContain('lot_number');
    expectValidation(await unchanged(h.a.admin.token, { method: 'PUT', url: url(), payload: { qty: '4' } }), 'qty');
    expectValidation(await unchanged(h.a.admin.token, { method: 'PUT', url: url(), payload: { quantity: '4', name: 'Renamed' } }), 'name');
  });

  it('422 for a body that is not an object', async () => {
    for (const payload of ['[]', '"4"', '4']) {
      const res = await unchanged(h.a.admin.token, { method: 'PUT', url: url(), payload, headers: { 'content-type': 'application/json' } });
      expectError(res, 422, 'validation_failed');
    }
  });

  it('409 lab_uses_instances in a migrated lab, naming the instance operation; nothing changes', async () => {
    const res = await unchanged(
      h.a.admin.token,
      { method: 'PUT', url: `/inventory-items/${h.a.migratedLab.itemId}`, payload: { quantity: '1' } },
      h.a.migratedLab.itemId,
    );
    const body = expectError(res, 409, 'lab_uses_instances');
    expect(body.message).toContain('/instances/');
    expect(body.message).toMatch(/PUT \/inventory-items\/\{itemId\}\/instances\/\{itemInstanceId\}/);
  });

  it("409 in a migrated lab also for the lab's member and for a quantity equal to the current sum", async () => {
    const res = await unchanged(
      h.a.member.token,
      { method: 'PUT', url: `/inventory-items/${h.a.migratedLab.itemId}`, payload: { quantity: '0.3' } },
      h.a.migratedLab.itemId,
    );
    expectError(res, 409, 'lab_uses_instances');
  });

  it('404 not_found for an unknown item', async () => {
    expectError(
      await unchanged(h.a.admin.token, { method: 'PUT', url: `/inventory-items/${UNKNOWN_ID}`, payload: { quantity: '1' } }),
      404,
      'not_found',
    );
  });

  it('412 precondition_failed for a stale or foreign ETag, and nothing changes', async () => {
    const { etag } = await getItemJson(h, h.a.admin.token, h.a.legacyLab.itemId);
    const ok = await h.call(h.a.admin.token, { method: 'PUT', url: url(), payload: { quantity: '6' }, headers: { 'if-match': etag! } });
    expect(ok.statusCode).toBe(200);
    for (const stale of [etag!, '"v999"', '"something-else"']) {
      const res = await unchanged(h.a.admin.token, {
        method: 'PUT',
        url: url(),
        payload: { quantity: '7' },
        headers: { 'if-match': stale },
      });
      expectError(res, 412, 'precondition_failed');
      expect(res.headers.etag).toBeUndefined();
    }
    expect((await getItemJson(h, h.a.admin.token, h.a.legacyLab.itemId)).body.quantity).toBe('6');
  });

  it('two concurrent PUTs with the same ETag: exactly one wins, the other gets 412', async () => {
    const { etag } = await getItemJson(h, h.a.admin.token, h.a.legacyLab.itemId);
    const state = await dbState(h);
    const [r1, r2] = await Promise.all(
      ['11', '12'].map((quantity) =>
        h.call(h.a.admin.token, { method: 'PUT', url: url(), payload: { quantity }, headers: { 'if-match': etag! } }),
      ),
    );
    expect([r1!.statusCode, r2!.statusCode].sort()).toEqual([200, 412]);
    const winner = r1!.statusCode === 200 ? r1! : r2!;
    expectError(r1!.statusCode === 412 ? r1! : r2!, 412, 'precondition_failed');
    const after = await getItemJson(h, h.a.admin.token, h.a.legacyLab.itemId);
    expect(after.body.quantity).toBe(winner.json().quantity);
    expect(after.etag).toBe(winner.headers.etag);
    const now = await dbState(h);
    expect(now.events.length - state.events.length).toBe(1);
    expect(now.changes.length - state.changes.length).toBe(1);
  });

  it('412 for a weak ETag (If-Match uses strong comparison)', async () => {
    const { etag } = await getItemJson(h, h.a.admin.token, h.a.legacyLab.itemId);
    expectError(
      await unchanged(h.a.admin.token, { method: 'PUT', url: url(), payload: { quantity: '7' }, headers: { 'if-match': `W/${etag}` } }),
      412,
      'precondition_failed',
    );
  });

  it('400 invalid_json for malformed JSON', async () => {
    for (const payload of ['{"quantity": "1"', '{quantity: "1"}', "{'quantity': '1'}"]) {
      const res = await unchanged(h.a.admin.token, { method: 'PUT', url: url(), payload, headers: { 'content-type': 'application/json' } });
      expectError(res, 400, 'invalid_json');
    }
  });

  it('400 for an empty body declared as JSON', async () => {
    expectError(
      await unchanged(h.a.admin.token, { method: 'PUT', url: url(), payload: '', headers: { 'content-type': 'application/json' } }),
      400,
    );
  });

  itRefusesOtherMediaTypes(
    (payload, contentType) => unchanged(h.a.admin.token, { method: 'PUT', url: url(), payload, headers: { 'content-type': contentType } }),
    'quantity=4',
    '{"quantity":"4"}',
  );

  it('413 payload_too_large for a body over the limit', async () => {
    const payload = JSON.stringify({ quantity: '1', pad: 'x'.repeat(h.config.bodyLimitBytes + 10) });
    const res = await unchanged(h.a.admin.token, { method: 'PUT', url: url(), payload, headers: { 'content-type': 'application/json' } });
    expectError(res, 413, 'payload_too_large');
  });

  it('a 5xx never happens for any of the above, and every error has its own request_id', async () => {
    const ids = new Set<string>();
    for (const opts of [
      { method: 'PUT', url: url(), payload: { quantity: '-1' } },
      { method: 'PUT', url: url(), payload: '{', headers: { 'content-type': 'application/json' } },
      { method: 'PUT', url: `/inventory-items/${UNKNOWN_ID}`, payload: { quantity: '1' } },
    ] as InjectOptions[]) {
      const res = await h.call(h.a.admin.token, opts);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      ids.add(res.json().request_id);
    }
    expect(ids.size).toBe(3);
  });
});
