import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { expectNotFound, expectValidationError, MISSING_ID } from './_helpers.js';

const h = useHarness();

describe('GET /order-requests/{id}/history errors', () => {
  it('404 for an unknown uuid, with the request id', async () => {
    const res = await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/${MISSING_ID}/history` });
    expectNotFound(res);
    expect(res.json().request_id).toBe(res.headers['x-request-id']);
  });

  it('422 for an id that is not a uuid', async () => {
    expectValidationError(await h.call(h.a.admin.token, { method: 'GET', url: '/order-requests/not-a-uuid/history' }), 'id');
  });

  it("404 for an inventory item's id", async () => {
    expectNotFound(await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/${h.a.legacyLab.itemId}/history` }));
  });
});
