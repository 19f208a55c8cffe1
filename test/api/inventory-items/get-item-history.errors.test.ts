// GET /inventory-items/{id}/history: docs/product.md §5 (per-item history: who changed what, when, old → new).
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, expectError, expectValidation, UNKNOWN_ID } from './_helpers.js';
import { historyFixture } from './_history.js';

const h = useHarness();
const { history, call } = historyFixture(h);

describe('GET /inventory-items/{id}/history (errors)', () => {
  it('422 naming id for a non-UUID id; 404 for an unknown item and for a deleted one', async () => {
    expectValidation(await history(h.a.admin.token, 'abc'), 'id');
    expectError(await history(h.a.admin.token, UNKNOWN_ID), 404, 'not_found');
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'Gone', quantity: '1' });
    await call(h.a.admin.token, 'PATCH', `/inventory-items/${item.id}`, { name: 'Gone soon' });
    expect((await h.call(h.a.admin.token, { method: 'DELETE', url: `/inventory-items/${item.id}` })).statusCode).toBe(204);
    expectError(await history(h.a.admin.token, item.id), 404, 'not_found');
  });
});
