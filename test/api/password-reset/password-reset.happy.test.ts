import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/errors.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { NEW_PASSWORD, secretOf, waitForResetLinks } from '../../helpers/links.js';
import { givePassword, PASSWORD, signIn, withSession } from '../../helpers/sessions.js';
import { startSmtp, type TestSmtp } from '../../helpers/smtp.js';

// Password resets (docs/auth.md): POST /auth/password-reset, POST /auth/password-reset/complete and
// POST /organization/users/{id}/password-reset, mailed through a real SMTP server in this process.

let h: Harness;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
  h = await startHarness({ SMTP_URL: smtp.url });
  for (const id of [h.a.admin.id, h.a.member.id, h.a.outsider.id]) await givePassword(h, id);
});
afterAll(async () => {
  await h?.close();
  await smtp?.close();
});

const complete = (token: string, password: string) =>
  h.app.inject({ method: 'POST', url: '/auth/password-reset/complete', payload: { token, password } });

describe('a reset the person asks for', () => {
  it('mails an hour-long link; completing sets the password and ends every session, tokens keep working', async () => {
    const session = await signIn(h, 'member-A@example.org');
    const before = smtp.messages.length;
    const started = Date.now();
    const res = await h.app.inject({ method: 'POST', url: '/auth/password-reset', payload: { email: ' Member-A@Example.org ' } });
    expect(res.statusCode).toBe(202);
    expect(res.body).toBe('');
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail!.to).toEqual(['member-a@example.org']);
    expect(mail!.subject).toBe('Reset your Labstock password');
    expect(mail!.text).toContain('asked to reset the Labstock password of member-a@example.org');
    const [link] = await waitForResetLinks(h, h.a.member.id, 1);
    expect(Date.parse(link!.expires_at) - started).toBeGreaterThan(3_600_000 - 60_000);
    expect(Date.parse(link!.expires_at) - started).toBeLessThan(3_600_000 + 60_000);
    expect(link!.organization_id).toBeNull();

    const done = await complete(secretOf(mail!.text), NEW_PASSWORD);
    expect(done.statusCode, done.body).toBe(204);
    expect(done.headers['set-cookie']).toBeUndefined();
    expect((await withSession(h, session, { method: 'GET', url: '/auth/session' })).json()).toEqual({ signed_in: false });
    expect((await h.call(h.a.member.token, { method: 'GET', url: '/user' })).statusCode).toBe(200);
    await signIn(h, 'member-A@example.org', NEW_PASSWORD);
    expectError(
      await h.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: 'member-A@example.org', password: PASSWORD } }),
      401,
    );
  });
});

describe('a reset link an org admin makes', () => {
  it('is returned (a day long) and mailed to the person, and works once', async () => {
    const before = smtp.messages.length;
    const started = Date.now();
    const res = await h.call(h.a.admin.token, { method: 'POST', url: `/organization/users/${h.a.outsider.id}/password-reset` });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toEqual({
      url: expect.stringMatching(/^http:\/\/labstock\.test\/app\/password-reset\//),
      expires_at: expect.any(String),
      mailed: true,
    });
    expect(Date.parse(body.expires_at) - started).toBeGreaterThan(86_400_000 - 60_000);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail!.to).toEqual(['outsider-a@example.org']);
    expect(mail!.text).toContain('Ada AdminA <admin-a@example.org> has made a link for you');
    expect(mail!.text).toContain(body.url);
    expect((await complete(secretOf(body.url), NEW_PASSWORD)).statusCode).toBe(204);
    await signIn(h, 'outsider-A@example.org', NEW_PASSWORD);
  });

  it('a newer link replaces the older one', async () => {
    const post = () => h.call(h.a.admin.token, { method: 'POST', url: `/organization/users/${h.a.admin.id}/password-reset` });
    const first = (await post()).json();
    const second = (await post()).json();
    expectError(await complete(secretOf(first.url), NEW_PASSWORD), 404, 'not_found');
    expect((await complete(secretOf(second.url), NEW_PASSWORD)).statusCode).toBe(204);
  });
});
