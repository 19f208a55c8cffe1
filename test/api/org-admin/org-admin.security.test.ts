import { describe, expect, it } from 'vitest';
import { systemActor } from '../../../src/shared/actor.js';
import { expectError } from '../../helpers/errors.js';
import { type Snapshot, snapshotDb } from '../../helpers/operations.js';
import { givePassword, signIn, withSession } from '../../helpers/sessions.js';
import { useHarness } from '../../helpers/use-harness.js';

let before: Snapshot;
const h = useHarness({}, async (h) => {
  await givePassword(h, h.a.admin.id);
});

describe('organization administration (security)', () => {
  it("org A's admin, by token or session, gets 404 for every one of org B's users, labs and memberships, and changes nothing", async () => {
    const s = await signIn(h, 'admin-A@example.org');
    before = await snapshotDb(h);
    const B = h.b;
    const calls = [
      { method: 'PUT', url: `/organization/users/${B.admin.id}`, payload: { active: false } },
      { method: 'PUT', url: `/organization/users/${B.member.id}`, payload: { role: 'admin' } },
      { method: 'PUT', url: `/organization/labs/${B.legacyLab.id}`, payload: { archived: true } },
      { method: 'GET', url: `/organization/labs/${B.legacyLab.id}/members` },
      { method: 'POST', url: `/organization/labs/${B.otherLab.id}/members`, payload: { user_id: B.member.id } },
      { method: 'POST', url: `/organization/labs/${h.a.otherLab.id}/members`, payload: { user_id: B.member.id } },
      { method: 'POST', url: `/organization/labs/${B.otherLab.id}/members`, payload: { user_id: h.a.member.id } },
      { method: 'DELETE', url: `/organization/labs/${B.legacyLab.id}/members/${B.member.id}` },
      { method: 'DELETE', url: `/organization/labs/${h.a.legacyLab.id}/members/${B.member.id}` },
    ] as const;
    for (const c of calls) {
      expectError(await h.call(h.a.admin.token, c), 404, 'not_found');
      expectError(await withSession(h, s, c), 404, 'not_found');
      // A member of A asking about B's ids in the path learns no more: 404 too, never 403. With A's own lab in the
      // path the member is refused before any id in the body is looked at.
      const ownLabInPath = c.url.includes(h.a.otherLab.id) || c.url.includes(h.a.legacyLab.id);
      expectError(await h.call(h.a.member.token, c), ownLabInPath ? 403 : 404);
    }
    const after = await snapshotDb(h);
    const { sessions: _a, ...restBefore } = before;
    const { sessions: _b, ...restAfter } = after;
    expect(restAfter).toEqual(restBefore);
  });

  it("lists show none of org B's users, labs or tokens", async () => {
    for (const url of ['/organization/users', '/organization/labs', '/organization/tokens']) {
      const res = await h.call(h.a.admin.token, { method: 'GET', url: `${url}?per_page=100` });
      expect(res.statusCode).toBe(200);
      for (const id of [h.b.admin.id, h.b.member.id, h.b.legacyLab.id, h.b.orgId, 'admin-b@example.org'])
        expect(res.body).not.toContain(id);
    }
  });

  it("deactivation in one organization leaves the user's other organizations alone", async () => {
    const { createUser, createToken } = await import('../../../src/accounts/service.js');
    await createUser(h.deps.db, systemActor('cli'), {
      organizationId: h.b.orgId,
      email: 'outsider-A@example.org',
      firstName: 'Olga',
      lastName: 'OutsiderA',
    });
    const inB = await createToken(h.deps.db, systemActor('cli'), { userId: h.a.outsider.id, organizationId: h.b.orgId });
    const res = await h.call(h.a.admin.token, { method: 'PUT', url: `/organization/users/${h.a.outsider.id}`, payload: { active: false } });
    expect(res.statusCode).toBe(200);
    expect((await h.call(h.a.outsider.token, { method: 'GET', url: '/user' })).statusCode).toBe(401);
    expect((await h.call(inB.token, { method: 'GET', url: '/user' })).statusCode).toBe(200);
  });
});
