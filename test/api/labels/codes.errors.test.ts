// GET /codes/{code} and GET /codes with bad input: a malformed or unknown code, a deleted thing's code, the wrong
// number of filters, ids that are not ids. Each a clear error that changes nothing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbState } from '../../helpers/data.js';
import { expectError } from '../../helpers/errors.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { codeOf, codesOf, resolve } from './_labels.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

describe('label codes (errors)', () => {
  it('a code that cannot be one, or one nobody holds, is 404 not_found', async () => {
    const before = await dbState(h);
    for (const code of ['x', 'O0I1O0I1O0', 'ZZZZZZZZZZ', '23456789AB', `${'A'.repeat(64)}`])
      expectError(await resolve(h, h.a.admin.token, code), 404, 'not_found');
    expect(await dbState(h)).toEqual(before);
  });

  it("a deleted item's code stays in the table, never handed out again, and resolves to nothing", async () => {
    const created = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/inventory-items',
      payload: { lab_id: h.a.legacyLab.id, name: 'Short-lived', type_id: h.a.legacyLab.typeId, quantity: '1' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const code = (await codeOf(h, 'item', created.json().id))!;
    expect((await resolve(h, h.a.admin.token, code)).statusCode).toBe(200);
    const deleted = await h.call(h.a.admin.token, { method: 'DELETE', url: `/inventory-items/${created.json().id}` });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expectError(await resolve(h, h.a.admin.token, code), 404, 'not_found');
    expect(await codeOf(h, 'item', created.json().id)).toBe(code);
    const row = await h.deps.db.selectFrom('label_codes').selectAll().where('code', '=', code).executeTakeFirstOrThrow();
    expect(Date.parse(row.retired_at!)).not.toBeNaN();
  });

  it("a deleted location's code is retired the same way", async () => {
    const created = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/locations',
      payload: { lab_id: h.a.migratedLab.id, name: 'Short shelf' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const code = (await codeOf(h, 'location', created.json().id))!;
    const deleted = await h.call(h.a.admin.token, { method: 'DELETE', url: `/locations/${created.json().id}` });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expectError(await resolve(h, h.a.admin.token, code), 404, 'not_found');
    const row = await h.deps.db.selectFrom('label_codes').selectAll().where('code', '=', code).executeTakeFirstOrThrow();
    expect(Date.parse(row.retired_at!)).not.toBeNaN();
  });

  it('GET /codes needs exactly one of instance_id, location_id, item_id (422), each a UUID (400/422)', async () => {
    expectError(await codesOf(h, h.a.admin.token, ''), 422, 'validation_failed');
    expectError(
      await codesOf(h, h.a.admin.token, `instance_id=${h.a.migratedLab.instanceIds[0]}&location_id=${h.a.migratedLab.locationIds[0]}`),
      422,
      'validation_failed',
    );
    const bad = await codesOf(h, h.a.admin.token, 'instance_id=not-a-uuid');
    expect([400, 422]).toContain(bad.statusCode);
    expectError(await codesOf(h, h.a.admin.token, 'item_id=0190a0e0-0000-7000-8000-000000000099'), 404, 'not_found');
    expectError(await codesOf(h, h.a.admin.token, 'location_id=0190a0e0-0000-7000-8000-000000000099'), 404, 'not_found');
  });
});
