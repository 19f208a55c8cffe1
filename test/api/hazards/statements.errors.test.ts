// GET /hazards/statements and /hazards/classes take no parameters and no other method.
import { describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

describe('hazard statements and classes (errors)', () => {
  it('other methods are 405 with Allow', async () => {
    for (const url of ['/hazards/statements', '/hazards/classes']) {
      const res = await h.call(h.a.admin.token, { method: 'POST', url, payload: {} });
      expectError(res, 405, 'method_not_allowed');
      expect(res.headers.allow).toContain('GET');
    }
  });

  it('an unknown path below /hazards is 404', async () => {
    expectError(await h.call(h.a.admin.token, { method: 'GET', url: '/hazards/pictograms' }), 404);
  });
});
