// PUT and GET /inventory-items/{id}/minimum-quantity refusals (docs/product.md §2): 400, 401, 404, 409 lab_migrating,
// 412, 415, 422; each in the error shape, each changing nothing.

import { describe, expect, it } from 'vitest';
import { startMigration } from '../../../src/lab-migration/service.js';
import { createLab } from '../../../src/labs/service.js';
import { systemActor } from '../../../src/shared/actor.js';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, dbState, expectError, expectValidation, getItemJson, revokedToken, UNKNOWN_ID } from './_helpers.js';

let itemId: string;
const h = useHarness({}, async (h) => {
  itemId = h.a.legacyLab.itemId;
});

const url = (id: string) => `/inventory-items/${id}/minimum-quantity`;

async function unchanged<T>(request: () => Promise<T>): Promise<T> {
  const before = await dbState(h);
  const res = await request();
  expect(await dbState(h)).toEqual(before);
  return res;
}

describe('minimum quantity (errors)', () => {
  it('401 without a valid token, for GET and PUT', async () => {
    const revoked = await revokedToken(h, h.a);
    for (const token of [null, 'lst_unknown', revoked]) {
      expectError(await h.call(token, { method: 'GET', url: url(itemId) }), 401, 'unauthorized');
      expectError(
        await unchanged(() => h.call(token, { method: 'PUT', url: url(itemId), payload: { minimum_quantity: '1' } })),
        401,
        'unauthorized',
      );
    }
  });

  it('404 for an item that does not exist; 422 for an id that is not a UUID', async () => {
    expectError(await h.call(h.a.admin.token, { method: 'GET', url: url(UNKNOWN_ID) }), 404, 'not_found');
    expectError(
      await unchanged(() => h.call(h.a.admin.token, { method: 'PUT', url: url(UNKNOWN_ID), payload: { minimum_quantity: '1' } })),
      404,
      'not_found',
    );
    expectValidation(await h.call(h.a.admin.token, { method: 'GET', url: url('not-a-uuid') }), 'id');
  });

  it.each([
    ['a negative number', { minimum_quantity: '-1' }],
    ['a number, not a string', { minimum_quantity: 5 }],
    ['words', { minimum_quantity: 'five' }],
    ['an exponent', { minimum_quantity: '1e3' }],
    ['too many decimals', { minimum_quantity: '0.12345678901' }],
    ['too many digits', { minimum_quantity: '123456789012345678901' }],
    ['an empty string', { minimum_quantity: '' }],
    ['a leading dot', { minimum_quantity: '.5' }],
    ['no field', {}],
  ])('422 naming minimum_quantity for %s', async (_label, payload) => {
    expectValidation(await unchanged(() => h.call(h.a.admin.token, { method: 'PUT', url: url(itemId), payload })), 'minimum_quantity');
  });

  it('422 naming an unknown field', async () => {
    const res = await unchanged(() =>
      h.call(h.a.admin.token, { method: 'PUT', url: url(itemId), payload: { minimum_quantity: '1', quantity: '2' } }),
    );
    expectValidation(res, 'quantity');
  });

  it('400 for malformed JSON, 415 for a body that is not JSON', async () => {
    expectError(
      await unchanged(() =>
        h.call(h.a.admin.token, {
          method: 'PUT',
          url: url(itemId),
          payload: '{"minimum_quantity":',
          headers: { 'content-type': 'application/json' },
        }),
      ),
      400,
    );
    expectError(
      await unchanged(() =>
        h.call(h.a.admin.token, {
          method: 'PUT',
          url: url(itemId),
          payload: 'minimum_quantity=1',
          headers: { 'content-type': 'text/plain' },
        }),
      ),
      415,
    );
  });

  it('412 when If-Match is not the current ETag', async () => {
    const { etag } = await getItemJson(h, h.a.admin.token, itemId);
    for (const ifMatch of ['"v999"', `W/${etag}`]) {
      expectError(
        await unchanged(() =>
          h.call(h.a.admin.token, {
            method: 'PUT',
            url: url(itemId),
            payload: { minimum_quantity: '1' },
            headers: { 'if-match': ifMatch },
          }),
        ),
        412,
        'precondition_failed',
      );
    }
  });

  it('409 lab_migrating while the lab migrates to instances', async () => {
    const lab = await createLab(h.deps.db, h.a.admin.actor, { organizationId: h.a.orgId, name: 'Migrating lab' });
    const item = await addItem(h, h.a.admin.actor, { labId: lab.id, name: 'Frozen', quantity: '1' });
    await startMigration(h.deps.db, systemActor('cli'), lab.id);
    expectError(
      await unchanged(() => h.call(h.a.admin.token, { method: 'PUT', url: url(item.id), payload: { minimum_quantity: '2' } })),
      409,
      'lab_migrating',
    );
    // Reading it still works.
    expect((await h.call(h.a.admin.token, { method: 'GET', url: url(item.id) })).statusCode).toBe(200);
  });
});
