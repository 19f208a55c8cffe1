// GET /hazards/statements and /hazards/classes: the same public rules for every signed-in caller; a token is needed.
import { describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

describe('hazard statements and classes (security)', () => {
  it('without a token or with a wrong one 401', async () => {
    for (const url of ['/hazards/statements', '/hazards/classes']) {
      expectError(await h.call(null, { method: 'GET', url }), 401);
      expectError(await h.call('lst_wrong', { method: 'GET', url }), 401);
    }
  });

  it('the same answer for every organization: no tenant data in it', async () => {
    const a = await h.call(h.a.admin.token, { method: 'GET', url: '/hazards/statements' });
    const b = await h.call(h.b.outsider.token, { method: 'GET', url: '/hazards/statements' });
    expect(a.body).toBe(b.body);
    expect(a.body).not.toContain(h.a.orgId);
  });
});
