import { Writable } from 'node:stream';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCredentials } from '../../../src/accounts/auth-repository.js';
import { buildApp, loggerOptions } from '../../../src/server/app.js';
import { expectError } from '../../helpers/errors.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { invite, NEW_PASSWORD, secretOf } from '../../helpers/links.js';
import { type Snapshot, snapshotDb } from '../../helpers/operations.js';
import { givePassword, PASSWORD, signIn, withSession } from '../../helpers/sessions.js';
import { startSmtp, type TestSmtp } from '../../helpers/smtp.js';
import { useHarness } from '../../helpers/use-harness.js';

// Invitations across tenants, after deactivation, from other origins, and in the logs (docs/auth.md).

const h = useHarness({}, async (h) => {
  await givePassword(h, h.a.admin.id);
});

const accept = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  h.app.inject({ method: 'POST', url: '/auth/invitations/accept', payload, headers });

describe('invitations (security)', () => {
  it("org A's admin gets 404 for org B's users, by token or session, and nothing changes", async () => {
    const s = await signIn(h, 'admin-A@example.org');
    const before: Snapshot = await snapshotDb(h);
    for (const id of [h.b.admin.id, h.b.member.id, '01900000-0000-7000-8000-000000000000']) {
      for (const url of [`/organization/users/${id}/invitation`, `/organization/users/${id}/password-reset`]) {
        expectError(await h.call(h.a.admin.token, { method: 'POST', url }), 404, 'not_found');
        expectError(await withSession(h, s, { method: 'POST', url }), 404, 'not_found');
        // A member asking about another organization's id learns no more than 404.
        expectError(await h.call(h.a.member.token, { method: 'POST', url }), 404, 'not_found');
      }
    }
    const { sessions: _a, ...restBefore } = before;
    const { sessions: _b, ...restAfter } = await snapshotDb(h);
    expect(restAfter).toEqual(restBefore);
  });

  it("a link made by org A's admin never sets the password of an account that is in org B too", async () => {
    // Org B's outsider has no password yet (tokens only): org A's admin, who holds the link, must not choose it.
    const body = await invite(h, 'outsider-B@example.org');
    const res = await accept({ token: secretOf(body.invitation.url), first_name: 'Eve', last_name: 'Evil', password: NEW_PASSWORD });
    expectError(res, 409, 'conflict');
    expect((await findCredentials(h.deps.db, 'outsider-b@example.org'))!.password_hash).toBeNull();
    const me = await h.call(h.b.outsider.token, { method: 'GET', url: '/user' });
    expect(me.json()).toMatchObject({ first_name: 'Olga', last_name: 'OutsiderB' });
    // And an account with a password is only joined with that password (test/api/invitations/invitations.errors.test.ts).
  });

  it("an invitation from org A shows only in org A's list: org B sees its own member, not A's pending invitation", async () => {
    const body = await invite(h, 'member-B@example.org');
    const inA = await h.call(h.a.admin.token, { method: 'GET', url: '/organization/users?per_page=100' });
    // Listed under the invitation's id, not the account's (issue 22): org A learns nothing of org B's person.
    expect(inA.json().find((u: { id: string }) => u.id === body.id).invitation_expires_at).toBe(body.invitation.expires_at);
    expect(inA.json().map((u: { id: string }) => u.id)).not.toContain(h.b.member.id);
    const inB = await h.call(h.b.admin.token, { method: 'GET', url: '/organization/users?per_page=100' });
    expect(inB.json().find((u: { id: string }) => u.id === h.b.member.id).invitation_expires_at).toBeNull();
  });

  it("a deactivated person's link stops working, and reactivation does not revive it", async () => {
    const body = await invite(h, 'zoe@example.org');
    const token = secretOf(body.invitation.url);
    await h.call(h.a.admin.token, { method: 'PUT', url: `/organization/users/${body.id}`, payload: { active: false } });
    expectError(await h.app.inject({ method: 'GET', url: `/auth/invitations/${token}` }), 404, 'not_found');
    expectError(await accept({ token, first_name: 'Zoe', last_name: 'Z', password: NEW_PASSWORD }), 404, 'not_found');
    await h.call(h.a.admin.token, { method: 'PUT', url: `/organization/users/${body.id}`, payload: { active: true } });
    expectError(await accept({ token, first_name: 'Zoe', last_name: 'Z', password: NEW_PASSWORD }), 404, 'not_found');
  });

  it('accepting from another origin is refused like sign-in, and the link stays usable', async () => {
    const body = await invite(h, 'yann@example.org');
    const token = secretOf(body.invitation.url);
    const payload = { token, first_name: 'Yann', last_name: 'Y', password: NEW_PASSWORD };
    expectError(await accept(payload, { origin: 'https://evil.example' }), 403, 'csrf_failed');
    const ok = await accept(payload, { origin: 'http://labstock.test' });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('the look-up says whom and where, nothing else', async () => {
    const body = await invite(h, 'xena@example.org', { first_name: 'Xena', last_name: 'X', role: 'admin' });
    const look = await h.app.inject({ method: 'GET', url: `/auth/invitations/${secretOf(body.invitation.url)}` });
    expect(Object.keys(look.json()).sort()).toEqual(['email', 'existing_account', 'expires_at', 'organization']);
    expect(look.body).not.toContain(body.id);
    expect(look.body).not.toContain('Xena');
  });
});

describe('secrets never reach the logs', () => {
  let smtp: TestSmtp;
  let logged: Harness;
  const lines: string[] = [];
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
    logged = await startHarness({ SMTP_URL: smtp.url });
    await givePassword(logged, logged.a.admin.id);
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    app = await buildApp({
      config: { ...logged.config, logLevel: 'trace' },
      db: logged.deps.db,
      logger: loggerOptions({ logLevel: 'trace' }, stream),
    });
  });
  afterAll(async () => {
    await app?.close();
    await logged?.close();
    await smtp?.close();
  });

  it('neither link secrets, nor URLs with them, nor passwords: invite, look up, accept, reset, complete, the web pages', async () => {
    const call = (opts: InjectOptions) => app.inject(opts);
    const invited = await call({
      method: 'POST',
      url: '/organization/users',
      headers: { 'access-token': logged.a.admin.token },
      payload: { email: 'logan@example.org' },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const secret = secretOf(invited.json().invitation.url);
    expect((await call({ method: 'GET', url: `/auth/invitations/${secret}` })).statusCode).toBe(200);
    // The web application's page for the link, should a browser ask this server for it.
    await call({ method: 'GET', url: `/app/invitations/${secret}?from=mail` });
    const accepted = await call({
      method: 'POST',
      url: '/auth/invitations/accept',
      payload: { token: secret, first_name: 'Logan', last_name: 'L', password: NEW_PASSWORD },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const before = smtp.messages.length;
    expect((await call({ method: 'POST', url: '/auth/password-reset', payload: { email: 'logan@example.org' } })).statusCode).toBe(202);
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    const resetSecret = secretOf(mail!.text);
    await call({ method: 'GET', url: `/app/password-reset/${resetSecret}` });
    const done = await call({ method: 'POST', url: '/auth/password-reset/complete', payload: { token: resetSecret, password: PASSWORD } });
    expect(done.statusCode, done.body).toBe(204);
    // Reused links are refused and logged as refused, still without the secret.
    expect((await call({ method: 'GET', url: `/auth/invitations/${secret}` })).statusCode).toBe(404);

    const text = lines.join('');
    expect(lines.length).toBeGreaterThan(10);
    expect(text).toContain('/auth/invitations/[redacted]');
    expect(text).toContain('/app/password-reset/[redacted]');
    for (const leak of [secret, resetSecret, NEW_PASSWORD, PASSWORD, logged.a.admin.token]) expect(text).not.toContain(leak);
  });
});
