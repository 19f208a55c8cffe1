import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCredentials } from '../../../src/accounts/auth-repository.js';
import { operatorPasswordResetLink } from '../../../src/accounts/password-resets.js';
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

describe('links from different people do not cancel each other (docs/auth.md)', () => {
  let n = 0;
  // From an address of its own: the throttling test above has locked the default one.
  const use = (token: string) =>
    h.app.inject({
      method: 'POST',
      url: '/auth/password-reset/complete',
      payload: { token, password: NEW_PASSWORD },
      remoteAddress: '192.0.2.77',
    });
  /** A person of org B alone, so B's admin may make them a link. */
  const person = async () => {
    const email = `both-links-${++n}@example.org`;
    const user = await createUser(h.deps.db, systemActor('cli'), {
      organizationId: h.b.orgId,
      email,
      firstName: 'Rita',
      lastName: `R${n}`,
    });
    return { id: user.id, email };
  };
  const adminLinkOf = async (userId: string) => {
    const res = await h.call(h.b.admin.token, { method: 'POST', url: `/organization/users/${userId}/password-reset` });
    expect(res.statusCode, res.body).toBe(201);
    return secretOf(res.json().url);
  };
  /** The links made so far as if made two minutes ago, so the next request is past the one-a-minute limit. */
  const age = (userId: string) =>
    h.deps.db
      .updateTable('user_links')
      .set({ created_at: new Date(Date.now() - 120_000).toISOString() })
      .where('user_id', '=', userId)
      .execute();
  /** The person asks for a reset; the secret of the link mailed to them. */
  const ownMails = (email: string) => smtp.messages.filter((m) => m.to.includes(email) && !m.text.includes('has made a link for you'));
  /** The person asks for a reset (`linksBefore` links exist); the secret of the link mailed to them. */
  const askAndRead = async (who: { id: string; email: string }, linksBefore: number) => {
    const mailsBefore = ownMails(who.email).length;
    expect((await ask(who.email)).statusCode).toBe(202);
    expect(await waitForResetLinks(h, who.id, linksBefore + 1)).toHaveLength(linksBefore + 1);
    const deadline = Date.now() + 5000;
    while (ownMails(who.email).length === mailsBefore) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 25));
    }
    return secretOf(ownMails(who.email).at(-1)!.text);
  };

  it("a reset the person asks for leaves the admin's link working", async () => {
    const who = await person();
    const adminToken = await adminLinkOf(who.id);
    await age(who.id);
    await askAndRead(who, 1);
    expect((await use(adminToken)).statusCode).toBe(204);
  });

  it("an admin's link leaves the link the person asked for working", async () => {
    const who = await person();
    const ownToken = await askAndRead(who, 0);
    await age(who.id);
    await adminLinkOf(who.id);
    expect((await use(ownToken)).statusCode).toBe(204);
  });

  it("the operator's link and the person's own do not cancel each other either", async () => {
    const who = await person();
    const operator = await operatorPasswordResetLink(h.deps.db, h.config.appUrl, { userId: who.id });
    await age(who.id);
    const ownToken = await askAndRead(who, 1);
    expect(
      await h.deps.db.selectFrom('user_links').select('id').where('user_id', '=', who.id).where('revoked_at', 'is', null).execute(),
    ).toHaveLength(2);
    expect((await use(operator.secret)).statusCode).toBe(204);
    // Setting the password ends every other link of the person, whoever made it.
    expectError(await use(ownToken), 404, 'not_found');
  });

  it('a newer link from the same source still replaces the older one', async () => {
    const who = await person();
    const first = await askAndRead(who, 0);
    await age(who.id);
    const second = await askAndRead(who, 1);
    expectError(await use(first), 404, 'not_found');
    expect((await use(second)).statusCode).toBe(204);
  });
});
