import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCredentials } from '../../../src/accounts/auth-repository.js';
import { createUser } from '../../../src/accounts/service.js';
import { systemActor } from '../../../src/shared/actor.js';
import { expectError } from '../../helpers/errors.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { NEW_PASSWORD, secretOf, waitForResetLinks } from '../../helpers/links.js';
import { givePassword } from '../../helpers/sessions.js';
import { startSmtp, type TestSmtp } from '../../helpers/smtp.js';

// Resets and enumeration, deactivation, other organizations and other origins (docs/auth.md).

let h: Harness;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
  h = await startHarness({ SMTP_URL: smtp.url });
  await givePassword(h, h.a.admin.id);
});
afterAll(async () => {
  await h?.close();
  await smtp?.close();
});

const ask = (email: string, headers: Record<string, string> = {}) =>
  h.app.inject({ method: 'POST', url: '/auth/password-reset', payload: { email }, headers });
const complete = (token: string, headers: Record<string, string> = {}) =>
  h.app.inject({ method: 'POST', url: '/auth/password-reset/complete', payload: { token, password: NEW_PASSWORD }, headers });
const adminLink = async (userId: string) =>
  secretOf((await h.call(h.a.admin.token, { method: 'POST', url: `/organization/users/${userId}/password-reset` })).json().url);

describe('password resets (security)', () => {
  it('the answer does not tell whether an address has an account', async () => {
    const strip = (res: Awaited<ReturnType<typeof ask>>) => {
      const { 'x-request-id': _id, date: _date, ...headers } = res.headers;
      return { status: res.statusCode, body: res.body, headers };
    };
    const known = await ask('member-B@example.org');
    const unknown = await ask('nobody-here@example.org');
    expect(strip(unknown)).toEqual(strip(known));
    expect(known.statusCode).toBe(202);
    // Only the account that exists gets mail.
    const mails = await smtp.waitFor(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.messages.length).toBe(mails.length);
    expect(smtp.messages.flatMap((m) => m.to)).not.toContain('nobody-here@example.org');
  });

  it('a person deactivated everywhere gets no link, and their links stop working', async () => {
    const token = await adminLink(h.a.member.id);
    await h.call(h.a.admin.token, { method: 'PUT', url: `/organization/users/${h.a.member.id}`, payload: { active: false } });
    expectError(await complete(token), 404, 'not_found');
    expect((await ask('member-A@example.org')).statusCode).toBe(202);
    await new Promise((r) => setTimeout(r, 300));
    expect((await waitForResetLinks(h, h.a.member.id, 2, 0)).length).toBe(1);
    expect((await findCredentials(h.deps.db, 'member-a@example.org'))!.password_hash).toBeNull();
  });

  it("an admin's link stops working once the person belongs to another organization too", async () => {
    const token = await adminLink(h.a.outsider.id);
    await createUser(h.deps.db, systemActor('cli'), {
      organizationId: h.b.orgId,
      email: 'outsider-A@example.org',
      firstName: 'Olga',
      lastName: 'OutsiderA',
    });
    expectError(await complete(token), 404, 'not_found');
    expect((await findCredentials(h.deps.db, 'outsider-a@example.org'))!.password_hash).toBeNull();
  });

  it('other origins are refused; the link stays usable', async () => {
    const token = await adminLink(h.a.admin.id);
    expectError(await complete(token, { origin: 'https://evil.example' }), 403, 'csrf_failed');
    expectError(await ask('admin-A@example.org', { origin: 'https://evil.example' }), 403, 'csrf_failed');
    expect((await complete(token, { origin: 'http://labstock.test' })).statusCode).toBe(204);
  });

  it('wrong secrets from one address are throttled like failed sign-ins', async () => {
    let last = 0;
    for (let i = 0; i < 25 && last !== 429; i++) last = (await complete(`${'z'.repeat(42)}${i % 10}`)).statusCode;
    expect(last).toBe(429);
  });
});
