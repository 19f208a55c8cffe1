import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const list = (token: string | null, query: string) => h.call(token, { method: 'GET', url: `/organization/users${query}` });

describe('GET /organization/users?q= (security)', () => {
  it("another organization's people never appear, searched by name or e-mail", async () => {
    // Both organizations have an Ada, a Max and an Olga (test/helpers/fixtures.ts).
    const ada = await list(h.a.admin.token, '?q=ada');
    expect(ada.json().map((u: { id: string }) => u.id)).toEqual([h.a.admin.id]);
    expect(ada.headers['x-total-count']).toBe('1');
    for (const q of ['adminb', 'b@example.org', 'member-b']) {
      const res = await list(h.a.admin.token, `?q=${encodeURIComponent(q)}`);
      expect(res.json(), q).toEqual([]);
      expect(res.headers['x-total-count'], q).toBe('0');
    }
  });

  it('members are refused (403) with q as without; no token is 401', async () => {
    expect((await list(h.a.member.token, '?q=ada')).statusCode).toBe(403);
    expect((await list(null, '?q=ada')).statusCode).toBe(401);
  });
});
