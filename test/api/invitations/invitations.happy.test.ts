import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { expireLinks, invite, NEW_PASSWORD, secretOf } from '../../helpers/links.js';
import { givePassword, PASSWORD, sessionCookieOf, signIn, withSession } from '../../helpers/sessions.js';
import { startSmtp, type TestSmtp } from '../../helpers/smtp.js';

// Invitations (docs/auth.md): POST /organization/users, POST /organization/users/{id}/invitation,
// GET /auth/invitations/{token}, POST /auth/invitations/accept; mailed through a real SMTP server in this process.

let h: Harness;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
  h = await startHarness({ SMTP_URL: smtp.url, MAIL_FROM: 'Labstock <labstock@lab.example>' });
  await givePassword(h, h.a.admin.id);
});
afterAll(async () => {
  await h?.close();
  await smtp?.close();
});

describe('inviting a person', () => {
  it('creates the user and membership, returns a 7-day link and mails it saying who invited whom to what', async () => {
    const before = smtp.messages.length;
    const started = Date.now();
    const body = await invite(h, ' Nora.New@Example.org ', { role: 'admin', first_name: 'Nora' });
    expect(body).toMatchObject({ email: 'nora.new@example.org', first_name: 'Nora', last_name: '', role: 'admin', deactivated_at: null });
    expect(body.invitation.mailed).toBe(true);
    const expires = Date.parse(body.invitation.expires_at) - started;
    expect(expires).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect(expires).toBeLessThan(7 * 86_400_000 + 60_000);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail!.to).toEqual(['nora.new@example.org']);
    expect(mail!.from).toBe('labstock@lab.example');
    expect(mail!.subject).toBe('Invitation to Org A on Labstock');
    expect(mail!.text).toContain('Ada AdminA <admin-a@example.org> has invited you (nora.new@example.org) to join Org A');
    expect(mail!.text).toContain(body.invitation.url);
    expect(mail!.text).toContain(`expires on ${body.invitation.expires_at.slice(0, 16).replace('T', ' ')} UTC`);
    const list = await h.call(h.a.admin.token, { method: 'GET', url: '/organization/users?per_page=100' });
    expect(list.json().map((u: any) => u.id)).toContain(body.id);
  });

  it('the link tells whom and where, then accepting sets name and password and signs in to that organization', async () => {
    const body = await invite(h, 'oscar@example.org');
    const secret = secretOf(body.invitation.url);
    const look = await h.app.inject({ method: 'GET', url: `/auth/invitations/${secret}` });
    expect(look.statusCode, look.body).toBe(200);
    expect(look.json()).toEqual({
      email: 'oscar@example.org',
      organization: { id: h.a.orgId, name: 'Org A' },
      existing_account: false,
      expires_at: body.invitation.expires_at,
    });
    const res = await h.app.inject({
      method: 'POST',
      url: '/auth/invitations/accept',
      payload: { token: secret, first_name: 'Oscar', last_name: 'Owl', password: NEW_PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toMatchObject({
      user: { id: body.id, first_name: 'Oscar', last_name: 'Owl', email: 'oscar@example.org' },
      organization: { id: h.a.orgId, role: 'member' },
    });
    const cookie = sessionCookieOf(res)!;
    const me = await withSession(h, { cookie, csrf: res.json().csrf_token }, { method: 'GET', url: '/user' });
    expect(me.json()).toMatchObject({ id: body.id, first_name: 'Oscar' });
    await signIn(h, 'oscar@example.org', NEW_PASSWORD);
  });

  it('a new link replaces the older one, and is mailed again', async () => {
    const body = await invite(h, 'petra@example.org');
    const before = smtp.messages.length;
    const res = await h.call(h.a.admin.token, { method: 'POST', url: `/organization/users/${body.id}/invitation` });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ url: expect.any(String), expires_at: expect.any(String), mailed: true });
    expect(res.json().url).not.toBe(body.invitation.url);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail!.text).toContain(res.json().url);
    expect((await h.app.inject({ method: 'GET', url: `/auth/invitations/${secretOf(body.invitation.url)}` })).statusCode).toBe(404);
    expect((await h.app.inject({ method: 'GET', url: `/auth/invitations/${secretOf(res.json().url)}` })).statusCode).toBe(200);
  });

  it('works with the session cookie too', async () => {
    const s = await signIn(h, 'admin-A@example.org');
    const res = await withSession(h, s, { method: 'POST', url: '/organization/users', payload: { email: 'quinn@example.org' } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().role).toBe('member');
  });

  it('a person who has an account in another organization joins with the password they have, keeping their name', async () => {
    await givePassword(h, h.b.member.id);
    const body = await invite(h, 'member-B@example.org', { first_name: 'Ignored' });
    // Answered like a new address (issue 22): neither her id nor her name.
    expect(body).toMatchObject({ first_name: 'Ignored', last_name: '' });
    expect(body.id).not.toBe(h.b.member.id);
    const secret = secretOf(body.invitation.url);
    expect((await h.app.inject({ method: 'GET', url: `/auth/invitations/${secret}` })).json().existing_account).toBe(true);
    const res = await h.app.inject({ method: 'POST', url: '/auth/invitations/accept', payload: { token: secret, password: PASSWORD } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().organization.id).toBe(h.a.orgId);
    expect(
      res
        .json()
        .organizations.map((o: any) => o.id)
        .sort(),
    ).toEqual([h.a.orgId, h.b.orgId].sort());
    expect(res.json().user.first_name).toBe('Max');
  });
});

describe('without SMTP_URL', () => {
  it('the link is returned with mailed: false, and works', async () => {
    const plain = await startHarness();
    try {
      const res = await plain.call(plain.a.admin.token, {
        method: 'POST',
        url: '/organization/users',
        payload: { email: 'rita@example.org' },
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().invitation.mailed).toBe(false);
      const accepted = await plain.app.inject({
        method: 'POST',
        url: '/auth/invitations/accept',
        payload: { token: secretOf(res.json().invitation.url), first_name: 'Rita', last_name: 'Rose', password: NEW_PASSWORD },
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
    } finally {
      await plain.close();
    }
  });
});

describe('who cannot sign in yet (invitation_expires_at)', () => {
  const listed = async (id: string) => {
    const res = await h.call(h.a.admin.token, { method: 'GET', url: '/organization/users?per_page=100' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().find((u: { id: string }) => u.id === id);
  };
  const accept = (url: string) =>
    h.app.inject({
      method: 'POST',
      url: '/auth/invitations/accept',
      payload: { token: secretOf(url), first_name: 'Sam', last_name: 'Sill', password: NEW_PASSWORD },
    });

  it('an invited person shows the expiry of their newest link until they accept; then, and for people never invited, null', async () => {
    const body = await invite(h, 'sam@example.org');
    expect(body.invitation_expires_at).toBe(body.invitation.expires_at);
    expect((await listed(body.id)).invitation_expires_at).toBe(body.invitation.expires_at);
    const again = await h.call(h.a.admin.token, { method: 'POST', url: `/organization/users/${body.id}/invitation` });
    expect(again.statusCode, again.body).toBe(201);
    expect((await listed(body.id)).invitation_expires_at).toBe(again.json().expires_at);
    expect((await accept(again.json().url)).statusCode).toBe(200);
    expect((await listed(body.id)).invitation_expires_at).toBeNull();
    // A link sent after they joined does not make them "invited" again.
    await h.call(h.a.admin.token, { method: 'POST', url: `/organization/users/${body.id}/invitation` });
    expect((await listed(body.id)).invitation_expires_at).toBeNull();
    expect((await listed(h.a.member.id)).invitation_expires_at).toBeNull();
  });

  it('a person who set a password another way (an admin-made reset link) is no longer shown invited', async () => {
    const body = await invite(h, 'reset-first@example.org');
    expect((await listed(body.id)).invitation_expires_at).toBe(body.invitation.expires_at);
    const reset = await h.call(h.a.admin.token, { method: 'POST', url: `/organization/users/${body.id}/password-reset` });
    expect(reset.statusCode, reset.body).toBe(201);
    const done = await h.app.inject({
      method: 'POST',
      url: '/auth/password-reset/complete',
      payload: { token: secretOf(reset.json().url), password: NEW_PASSWORD },
    });
    expect(done.statusCode, done.body).toBe(204);
    expect((await listed(body.id)).invitation_expires_at).toBeNull();
  });

  it('an invited account that already has a password (from another organization) is shown invited until it accepts', async () => {
    await givePassword(h, h.b.outsider.id);
    const body = await invite(h, 'outsider-B@example.org');
    expect(body.invitation_expires_at).toBe(body.invitation.expires_at);
    expect((await listed(body.id)).invitation_expires_at).toBe(body.invitation.expires_at);
    const res = await h.app.inject({
      method: 'POST',
      url: '/auth/invitations/accept',
      payload: { token: secretOf(body.invitation.url), password: PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await listed(h.b.outsider.id)).invitation_expires_at).toBeNull();
  });

  it('an expired invitation shows its past expiry; a deactivated person none', async () => {
    const late = await invite(h, 'tardy@example.org');
    await expireLinks(h, late.id);
    const shown = (await listed(late.id)).invitation_expires_at;
    expect(Date.parse(shown)).toBeLessThan(Date.now());
    const gone = await invite(h, 'gone@example.org');
    const off = await h.call(h.a.admin.token, { method: 'PUT', url: `/organization/users/${gone.id}`, payload: { active: false } });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().invitation_expires_at).toBeNull();
    expect((await listed(gone.id)).invitation_expires_at).toBeNull();
  });
});
