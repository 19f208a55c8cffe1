import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { expectNotFound, expectValidationError, MISSING_ID } from './_helpers.js';

const h = useHarness();

describe('GET /order-requests/{id} errors', () => {
  it('404 for an unknown uuid', async () => {
    const res = await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/${MISSING_ID}` });
    expectNotFound(res);
    expect(res.json().request_id).toBe(res.headers['x-request-id']);
  });

  it.each(['not-a-uuid', '123', '0190a6f2-1111-7222-8333-44445555666', '0190a6f2111172228333444455556666z'])(
    '422 for the non-uuid id %s',
    async (id) => {
      const res = await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/${id}` });
      expectValidationError(res, 'id');
    },
  );

  it('404 for the id of an inventory item (ids are not interchangeable)', async () => {
    expectNotFound(await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/${h.a.legacyLab.itemId}` }));
  });
});
