import { describe, expect, it } from 'vitest';
import { createToken, createUser } from '../../../src/accounts/service.js';
import { systemActor } from '../../../src/shared/actor.js';
import { revokedToken } from '../../helpers/data.js';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

describe('GET /user (security)', () => {
  it('a token of org A never returns a user of org B, whatever the query asks for', async () => {
    for (const url of ['/user', `/user?id=${h.b.admin.id}`, `/user?user_id=${h.b.admin.id}&organization_id=${h.b.orgId}`]) {
      const res = await h.call(h.a.member.token, { method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.json().id).toBe(h.a.member.id);
      expect(res.body).not.toContain(h.b.admin.id);
      expect(res.body).not.toContain('admin-b@example.org');
    }
  });

  it('each token maps to exactly its own user', async () => {
    const pairs: [string, string][] = [
      [h.a.admin.token, h.a.admin.id],
      [h.a.member.token, h.a.member.id],
      [h.a.outsider.token, h.a.outsider.id],
      [h.b.admin.token, h.b.admin.id],
      [h.b.member.token, h.b.member.id],
      [h.b.outsider.token, h.b.outsider.id],
    ];
    for (const [token, id] of pairs) {
      const res = await h.call(token, { method: 'GET', url: '/user' });
      expect(res.statusCode).toBe(200);
      expect(res.json().id).toBe(id);
    }
  });

  it("a user in two organizations is the same user through either org's token", async () => {
    const both = await createUser(h.deps.db, systemActor('cli'), {
      organizationId: h.b.orgId,
      email: 'member-a@example.org',
      firstName: 'Max',
      lastName: 'MemberA',
      role: 'admin',
    });
    expect(both.id).toBe(h.a.member.id);
    const tokenInB = await createToken(h.deps.db, systemActor('cli'), { userId: h.a.member.id, organizationId: h.b.orgId });
    const res = await h.call(tokenInB.token, { method: 'GET', url: '/user' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: h.a.member.id, first_name: 'Max', last_name: 'MemberA', email: 'member-a@example.org' });
  });

  it('unknown and revoked tokens get the same answer (no hint that a token once existed)', async () => {
    const revoked = await revokedToken(h, h.b);
    const r1 = expectError(await h.call(revoked, { method: 'GET', url: '/user' }), 401, 'unauthorized');
    const r2 = expectError(await h.call('lst_never-issued', { method: 'GET', url: '/user' }), 401, 'unauthorized');
    expect(r1.message).toBe(r2.message);
    expect(JSON.stringify(r1)).not.toContain(h.b.admin.id);
  });

  it("a token's hash is not accepted in place of the token", async () => {
    const { hashToken } = await import('../../../src/accounts/tokens.js');
    expectError(await h.call(hashToken(h.a.admin.token), { method: 'GET', url: '/user' }), 401, 'unauthorized');
  });
});
