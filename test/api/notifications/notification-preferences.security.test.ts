import { describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/errors.js';
import { givePassword, signIn, withSession } from '../../helpers/sessions.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const get = (token: string) => h.call(token, { method: 'GET', url: '/user/notifications' });

describe('GET/PUT /user/notifications (security)', () => {
  it("changes only the caller's own preferences, whatever the body names", async () => {
    const res = await h.call(h.a.member.token, {
      method: 'PUT',
      url: '/user/notifications',
      payload: { email_digest: false, user_id: h.b.member.id },
    });
    expect(res.statusCode).toBe(422);
    expect(
      (await h.call(h.a.member.token, { method: 'PUT', url: '/user/notifications', payload: { email_digest: false } })).statusCode,
    ).toBe(200);
    expect((await get(h.a.member.token)).json()).toEqual({ email_digest: false });
    for (const token of [h.a.admin.token, h.a.outsider.token, h.b.admin.token, h.b.member.token]) {
      expect((await get(token)).json()).toEqual({ email_digest: true });
    }
    const rows = await h.deps.db.selectFrom('digest_preferences').select(['user_id', 'organization_id']).execute();
    expect(rows).toEqual([{ user_id: h.a.member.id, organization_id: h.a.orgId }]);
  });

  it('a session write without the CSRF token is refused and changes nothing', async () => {
    await givePassword(h, h.b.admin.id);
    const session = await signIn(h, 'admin-b@example.org');
    const res = await withSession(
      h,
      session,
      { method: 'PUT', url: '/user/notifications', payload: { email_digest: false } },
      { csrf: false },
    );
    expectError(res, 403);
    expect((await get(h.b.admin.token)).json()).toEqual({ email_digest: true });
  });
});
