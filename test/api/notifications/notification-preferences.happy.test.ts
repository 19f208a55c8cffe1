import { describe, expect, it } from 'vitest';
import { givePassword, signIn, withSession } from '../../helpers/sessions.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const get = (token: string) => h.call(token, { method: 'GET', url: '/user/notifications' });
const put = (token: string, payload: unknown) => h.call(token, { method: 'PUT', url: '/user/notifications', payload: payload as object });

describe('GET/PUT /user/notifications (happy)', () => {
  it('the email digest is on by default; turning it off and on again is what GET then says', async () => {
    const first = await get(h.a.member.token);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ email_digest: true });

    const off = await put(h.a.member.token, { email_digest: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ email_digest: false });
    expect((await get(h.a.member.token)).json()).toEqual({ email_digest: false });
    // Stored for the organization the token acts in (per membership since issue 22).
    const row = await h.deps.db.selectFrom('digest_preferences').selectAll().where('user_id', '=', h.a.member.id).executeTakeFirst();
    expect(row).toMatchObject({ organization_id: h.a.orgId, email_digest: 0 });

    expect((await put(h.a.member.token, { email_digest: true })).json()).toEqual({ email_digest: true });
    expect((await get(h.a.member.token)).json()).toEqual({ email_digest: true });
    // The same PUT twice is the same answer.
    expect((await put(h.a.member.token, { email_digest: true })).json()).toEqual({ email_digest: true });
  });

  it('works with the session cookie (and its CSRF token) as with a token', async () => {
    await givePassword(h, h.a.admin.id);
    const session = await signIn(h, h.a.admin.email);
    const res = await withSession(h, session, { method: 'PUT', url: '/user/notifications', payload: { email_digest: false } });
    expect(res.statusCode).toBe(200);
    expect((await withSession(h, session, { method: 'GET', url: '/user/notifications' })).json()).toEqual({ email_digest: false });
    expect((await get(h.a.admin.token)).json()).toEqual({ email_digest: false });
  });
});
