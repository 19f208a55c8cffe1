import { describe, expect, it } from 'vitest';
import { expectValidation } from '../../helpers/errors.js';
import { invite } from '../../helpers/links.js';
import { useHarness } from '../../helpers/use-harness.js';

// Issue 22: addresses with a comma, angle brackets or quotes were accepted (anything with an @ and a dot), so an
// invitation to `a@example.org, b@example.org` stored that and mailed it to both. A plain address is required
// wherever one is given (src/shared/schemas.ts EmailAddress): invite, sign-in and password reset answer 422
// naming `email`, and nothing is stored.

const h = useHarness();

const RULE = /plain e-mail address/;
const BAD = [
  'ann@example.org,eve@example.org',
  'ann@example.org, eve@example.org',
  'Ann <ann@example.org>',
  'ann@example.org>',
  '"ann"@example.org',
  'ann\'@example.org"',
  'ann smith@example.org',
  'ann@exa\tmple.org',
  'ann\u0001@example.org',
  'ann\u0085@example.org',
  'ann\r\nBcc: eve@example.org',
  'ann;eve@example.org',
  'ann@example.org\u202e',
];

const users = async () =>
  Number(
    (
      await h.deps.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const links = async () =>
  Number(
    (
      await h.deps.db
        .selectFrom('user_links')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('e-mail addresses that are not plain addresses', () => {
  it('an invitation is 422 naming email, and no account or link is made', async () => {
    const before = [await users(), await links()];
    for (const email of BAD) {
      const res = await h.call(h.a.admin.token, { method: 'POST', url: '/organization/users', payload: { email } });
      const body = expectValidation(res, 'email');
      expect(body.errors.find((e: any) => e.field === 'email').message, email).toMatch(RULE);
    }
    expect([await users(), await links()]).toEqual(before);
  });

  it('sign-in and a password reset request are 422 naming email (not 401, not 202)', async () => {
    const before = await links();
    for (const email of BAD) {
      const signIn = await h.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email, password: 'a long enough password' } });
      expect(expectValidation(signIn, 'email').errors[0].message, email).toMatch(RULE);
      const reset = await h.app.inject({ method: 'POST', url: '/auth/password-reset', payload: { email } });
      expect(expectValidation(reset, 'email').errors[0].message, email).toMatch(RULE);
    }
    expect(await links()).toBe(before);
  });

  it('plain addresses are still accepted, surrounding spaces trimmed and letters lower-cased as before', async () => {
    const body = await invite(h, '  Mixed.Case+tag@Example.org ');
    expect(body.email).toBe('mixed.case+tag@example.org');
    expect((await invite(h, 'josé@exämple.org')).email).toBe('josé@exämple.org');
    const reset = await h.app.inject({ method: 'POST', url: '/auth/password-reset', payload: { email: 'nobody@example.org' } });
    expect(reset.statusCode, reset.body).toBe(202);
  });
});
