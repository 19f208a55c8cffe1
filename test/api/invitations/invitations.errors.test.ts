import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { expireLinks, invite, NEW_PASSWORD, secretOf } from '../../helpers/links.js';
import { givePassword } from '../../helpers/sessions.js';

// Invitations refused (docs/auth.md): reuse, expiry, duplicates, bad input, members, a mail server that is down.

let h: Harness;
beforeAll(async () => {
  // A port nobody listens on: every mail fails.
  h = await startHarness({ SMTP_URL: 'smtp://127.0.0.1:1' });
});
afterAll(() => h?.close());

const accept = (payload: Record<string, unknown>) => h.app.inject({ method: 'POST', url: '/auth/invitations/accept', payload });

describe('invitation links', () => {
  it('a mail server that is down loses nothing: the admin gets the link (mailed: false) and it works', async () => {
    const body = await invite(h, 'sam@example.org');
    expect(body.invitation.mailed).toBe(false);
    const res = await accept({ token: secretOf(body.invitation.url), first_name: 'Sam', last_name: 'Stone', password: NEW_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('cannot be used twice', async () => {
    const body = await invite(h, 'tess@example.org');
    const secret = secretOf(body.invitation.url);
    expect((await accept({ token: secret, first_name: 'Tess', last_name: 'T', password: NEW_PASSWORD })).statusCode).toBe(200);
    expectError(
      await accept({ token: secret, first_name: 'Mallory', last_name: 'M', password: 'another password 1234' }),
      404,
      'not_found',
    );
    expectError(await h.app.inject({ method: 'GET', url: `/auth/invitations/${secret}` }), 404, 'not_found');
  });

  it('of two uses at the same moment exactly one succeeds', async () => {
    const body = await invite(h, 'twins@example.org');
    const secret = secretOf(body.invitation.url);
    const results = await Promise.all([
      accept({ token: secret, first_name: 'One', last_name: 'T', password: NEW_PASSWORD }),
      accept({ token: secret, first_name: 'Two', last_name: 'T', password: 'a different passphrase 77' }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 404]);
  });

  it('cannot be used after expiry', async () => {
    const body = await invite(h, 'ursula@example.org');
    await expireLinks(h, body.id);
    expectError(await h.app.inject({ method: 'GET', url: `/auth/invitations/${secretOf(body.invitation.url)}` }), 404, 'not_found');
    expectError(
      await accept({ token: secretOf(body.invitation.url), first_name: 'U', last_name: 'U', password: NEW_PASSWORD }),
      404,
      'not_found',
    );
  });

  it('unknown and malformed secrets are the same 404', async () => {
    for (const token of ['x'.repeat(43), 'short', '../../etc']) {
      expectError(await accept({ token, first_name: 'A', last_name: 'B', password: NEW_PASSWORD }), 404, 'not_found');
    }
    expectError(await h.app.inject({ method: 'GET', url: `/auth/invitations/${'y'.repeat(43)}` }), 404, 'not_found');
  });

  it('a weak password or a missing name is 422 and leaves the link usable', async () => {
    const body = await invite(h, 'victor@example.org');
    const token = secretOf(body.invitation.url);
    expectValidation(await accept({ token, first_name: 'Victor', last_name: 'V', password: 'short' }), 'password');
    expectValidation(await accept({ token, first_name: 'Victor', last_name: 'V', password: 'victor@example.org' }), 'password');
    expectValidation(await accept({ token, last_name: 'V', password: NEW_PASSWORD }), 'first_name');
    expectValidation(await accept({ token, first_name: 'Victor', last_name: 'V', password: NEW_PASSWORD, extra: 1 }), 'extra');
    expectValidation(await accept({ first_name: 'Victor', password: NEW_PASSWORD }), 'token');
    expect((await accept({ token, first_name: 'Victor', last_name: 'V', password: NEW_PASSWORD })).statusCode).toBe(200);
  });

  it('an existing account that gives a wrong password is 401, and the link stays', async () => {
    await givePassword(h, h.b.admin.id);
    const body = await invite(h, 'admin-B@example.org');
    const token = secretOf(body.invitation.url);
    expectError(await accept({ token, password: 'not the right password' }), 401, 'unauthorized');
    expect((await h.app.inject({ method: 'GET', url: `/auth/invitations/${token}` })).statusCode).toBe(200);
  });
});

describe('inviting', () => {
  it('an e-mail already in the organization is 409, active or deactivated', async () => {
    expectError(
      await h.call(h.a.admin.token, { method: 'POST', url: '/organization/users', payload: { email: 'MEMBER-A@example.org' } }),
      409,
      'conflict',
    );
    const body = await invite(h, 'walter@example.org');
    await h.call(h.a.admin.token, { method: 'PUT', url: `/organization/users/${body.id}`, payload: { active: false } });
    expectError(
      await h.call(h.a.admin.token, { method: 'POST', url: '/organization/users', payload: { email: 'walter@example.org' } }),
      409,
      'conflict',
    );
    expectError(await h.call(h.a.admin.token, { method: 'POST', url: `/organization/users/${body.id}/invitation` }), 409, 'conflict');
  });

  it('bad input is 422 naming the field', async () => {
    const post = (payload: unknown) => h.call(h.a.admin.token, { method: 'POST', url: '/organization/users', payload: payload as object });
    expectValidation(await post({ email: 'not-an-address' }), 'email');
    expectValidation(await post({ email: 'x@example.org', role: 'owner' }), 'role');
    expectValidation(await post({}), 'email');
    expectValidation(await post({ email: 'x@example.org', name: 'X' }), 'name');
    expectValidation(await h.call(h.a.admin.token, { method: 'POST', url: '/organization/users/not-a-uuid/invitation' }), 'id');
  });

  it('members are 403, unknown users 404, no credentials 401', async () => {
    expectError(
      await h.call(h.a.member.token, { method: 'POST', url: '/organization/users', payload: { email: 'y@example.org' } }),
      403,
      'forbidden',
    );
    expectError(
      await h.call(h.a.member.token, { method: 'POST', url: `/organization/users/${h.a.outsider.id}/invitation` }),
      403,
      'forbidden',
    );
    expectError(
      await h.call(h.a.admin.token, { method: 'POST', url: '/organization/users/01900000-0000-7000-8000-000000000000/invitation' }),
      404,
      'not_found',
    );
    expectError(
      await h.call(null, { method: 'POST', url: '/organization/users', payload: { email: 'y@example.org' } }),
      401,
      'unauthorized',
    );
  });
});
