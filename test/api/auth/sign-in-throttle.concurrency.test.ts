import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { issueLink, LINK_LIFETIME_MS } from '../../../src/accounts/links.js';
import { createUser } from '../../../src/accounts/service.js';
import { THROTTLE } from '../../../src/accounts/throttle.js';
import { systemActor } from '../../../src/shared/actor.js';
import { expectError } from '../../helpers/errors.js';
import { secretOf } from '../../helpers/links.js';
import { givePassword, PASSWORD, signIn, withSession } from '../../helpers/sessions.js';
import { useHarness } from '../../helpers/use-harness.js';

// Guesses sent all at once (docs/auth.md, Throttling): each attempt is counted before its password is verified, so
// of 60 parallel guesses at one account only its budget of free failures is checked, and the rest are refused
// with 429 without a verification. Each guess comes from its own address, so only the account's count engages.

const h = useHarness();

const GUESSES = 60;
const BUDGET = THROTTLE.accountFreeFailures;
const WRONG = 'not the password at all';
let nextAddress = 1;
const address = () => `198.51.${100 + Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

let people = 0;
async function personWithPassword() {
  const email = `guessed-${++people}@example.org`;
  const user = await createUser(h.deps.db, systemActor('cli'), { organizationId: h.a.orgId, email, firstName: 'G', lastName: `${people}` });
  await givePassword(h, user.id);
  return { id: user.id, email };
}

/** The passwords of a burst: all wrong, or all wrong but one right one at a random place. */
function burst(withRight: boolean): string[] {
  const passwords = Array.from({ length: GUESSES }, () => WRONG);
  if (withRight) passwords[Math.floor(Math.random() * GUESSES)] = PASSWORD;
  return passwords;
}

function tally(results: LightMyRequestResponse[]) {
  const count = (status: number) => results.filter((r) => r.statusCode === status).length;
  for (const r of results.filter((r) => r.statusCode === 429)) {
    expectError(r, 429, 'rate_limited');
    expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  }
  return count;
}

describe('parallel guesses are counted before they are checked', () => {
  it(`sign-in: of ${GUESSES} wrong guesses at once only ${BUDGET} are checked, the rest are 429, and the account is locked`, async () => {
    const who = await personWithPassword();
    const results = await Promise.all(
      burst(false).map((password) =>
        h.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: who.email, password }, remoteAddress: address() }),
      ),
    );
    const count = tally(results);
    expect(count(401), results.map((r) => r.statusCode).join(' ')).toBeLessThanOrEqual(BUDGET);
    expect(count(401)).toBeGreaterThan(0);
    expect(count(401) + count(429)).toBe(GUESSES);
    // Locked now: the right password from yet another address is refused too.
    const right = await h.app.inject({
      method: 'POST',
      url: '/auth/sign-in',
      payload: { email: who.email, password: PASSWORD },
      remoteAddress: address(),
    });
    expectError(right, 429, 'rate_limited');
  });

  it(`sign-in: ${GUESSES - 1} wrong guesses and the right one at once, in random order: the right one is checked only within the budget`, async () => {
    const who = await personWithPassword();
    const passwords = burst(true);
    const results = await Promise.all(
      passwords.map((password) =>
        h.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: who.email, password }, remoteAddress: address() }),
      ),
    );
    const count = tally(results);
    const right = results[passwords.indexOf(PASSWORD)]!;
    expect([200, 429]).toContain(right.statusCode);
    // A success starts a fresh count, as it does one after the other: wrong guesses that came after it may use that
    // count too. So at most two budgets' worth are checked, against all 60 when the checks ran before the counting.
    expect(count(401), results.map((r) => r.statusCode).join(' ')).toBeLessThanOrEqual(right.statusCode === 200 ? 2 * BUDGET : BUDGET);
    expect(count(200) + count(401) + count(429)).toBe(GUESSES);
  });

  it(`PUT /user/password: of ${GUESSES} wrong current passwords at once only ${BUDGET} are checked, the rest are 429`, async () => {
    const who = await personWithPassword();
    const session = await signIn(h, who.email);
    const results = await Promise.all(
      burst(false).map((current) =>
        withSession(h, session, {
          method: 'PUT',
          url: '/user/password',
          payload: { current_password: current, new_password: 'a quite different passphrase' },
          remoteAddress: address(),
        }),
      ),
    );
    const count = tally(results);
    expect(count(422), results.map((r) => r.statusCode).join(' ')).toBeLessThanOrEqual(BUDGET);
    expect(count(422)).toBeGreaterThan(0);
    expect(count(422) + count(429)).toBe(GUESSES);
  });

  it(`accepting an invitation as an account with a password: of ${GUESSES} wrong passwords at once only ${BUDGET} are checked`, async () => {
    const who = await personWithPassword();
    const link = await issueLink(h.deps.db, h.config.appUrl, {
      kind: 'invitation',
      userId: who.id,
      organizationId: h.a.orgId,
      createdBy: h.a.admin.id,
      lifetimeMs: LINK_LIFETIME_MS.invitation,
    });
    const token = secretOf(link.url);
    const results = await Promise.all(
      burst(false).map((password) =>
        h.app.inject({ method: 'POST', url: '/auth/invitations/accept', payload: { token, password }, remoteAddress: address() }),
      ),
    );
    const count = tally(results);
    expect(count(401), results.map((r) => r.statusCode).join(' ')).toBeLessThanOrEqual(BUDGET);
    expect(count(401)).toBeGreaterThan(0);
    expect(count(401) + count(429)).toBe(GUESSES);
  });
});
