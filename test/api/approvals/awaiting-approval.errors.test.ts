import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/errors.js';
import { type Harness, startHarness } from '../../helpers/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

describe('the approval queue: errors', () => {
  it('422 for a bad page or per_page or an unknown parameter value type; a lab_id that is not a lab gives []', async () => {
    for (const q of ['?page=0', '?per_page=0', '?per_page=abc']) {
      expectError(await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/awaiting-approval${q}` }), 422, 'validation_failed');
    }
    const res = await h.call(h.a.admin.token, { method: 'GET', url: '/order-requests/awaiting-approval?lab_id=nope' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('401 without a token', async () => {
    expectError(await h.call(null, { method: 'GET', url: '/order-requests/awaiting-approval' }), 401, 'unauthorized');
  });
});
