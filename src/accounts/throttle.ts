import { createHash } from 'node:crypto';
import type { Executor } from '../shared/db/database.js';
import { AppError } from '../shared/errors.js';
import * as repo from './auth-repository.js';

// Sign-in throttling (docs/auth.md): failures are counted per account (the e-mail, known or not, so an unknown
// e-mail is throttled exactly like a known one) and per client address. Past a number of free failures each further
// one locks that key for twice as long as the one before: 1 s, 2 s, 4 s … up to 15 min. A lock ends by itself;
// a success clears the account's count (never the address's, which a guesser with one valid account could reset).
// Counts start again after an hour without failures. Rows live in the database, so every process sees them.
//
// An attempt is counted before its password is verified (attempt() below): it reserves a place on both keys in one
// statement each, so guesses sent all at once cannot all be checked before the first failure counts. A key takes
// new attempts while its failures and the attempts in flight stay under its free failures; past them, one attempt at
// a time (its failure will lock the key). A refused attempt is 429 and verifies nothing.
export const THROTTLE = {
  accountFreeFailures: 5,
  addressFreeFailures: 20,
  baseDelayMs: 1000,
  maxDelayMs: 15 * 60_000,
  resetAfterMs: 60 * 60_000,
  /** An attempt in flight longer than this is no longer counted (its process died while verifying). */
  stalePendingMs: 60_000,
} as const;

export interface ThrottleKeys {
  account: string;
  address: string;
}

export function throttleKeys(email: string, address: string): ThrottleKeys {
  // The e-mail is hashed so that the table holds no list of attempted addresses.
  return { account: `account:${createHash('sha256').update(email).digest('hex')}`, address: `address:${address}` };
}

export function delayAfter(failures: number, free: number): number {
  if (failures < free) return 0;
  return Math.min(THROTTLE.baseDelayMs * 2 ** Math.min(failures - free, 30), THROTTLE.maxDelayMs);
}

const rateLimited = (seconds: number, why: string) =>
  new AppError('rate_limited', `${why}; retry in ${seconds} s`, { headers: { 'Retry-After': String(seconds) } });

/** 429 rate_limited with Retry-After while either key is locked. */
export async function checkThrottle(ex: Executor, keys: ThrottleKeys, now = Date.now()): Promise<void> {
  const locks = await repo.findLocks(ex, [keys.account, keys.address], new Date(now).toISOString());
  if (locks.length === 0) return;
  const until = Math.max(...locks.map((l) => Date.parse(l.locked_until!)));
  throw rateLimited(Math.max(1, Math.ceil((until - now) / 1000)), 'Too many failed sign-ins');
}

/**
 * Runs `check` (a password verification) as one counted attempt. It is reserved on the account and the address
 * first: 429 rate_limited, without running `check`, while either is locked or has no free failure left. A null
 * result is a failure (counted, and the key locked past its free failures); anything else a success, which clears
 * the account's count when `clearOnSuccess`. An exception from `check` only gives the reservation back.
 */
export async function attempt<T>(
  ex: Executor,
  keys: ThrottleKeys,
  check: () => Promise<T | null>,
  { clearOnSuccess = true }: { clearOnSuccess?: boolean } = {},
): Promise<T | null> {
  const start = Date.now();
  const times = {
    now: new Date(start).toISOString(),
    resetBefore: new Date(start - THROTTLE.resetAfterMs).toISOString(),
    staleBefore: new Date(start - THROTTLE.stalePendingMs).toISOString(),
  };
  if (!(await repo.reserveAttempt(ex, keys.account, THROTTLE.accountFreeFailures, times))) await refuse(ex, keys, start);
  if (!(await repo.reserveAttempt(ex, keys.address, THROTTLE.addressFreeFailures, times))) {
    await repo.endAttempt(ex, keys.account);
    await refuse(ex, keys, start);
  }
  let result: T | null;
  try {
    result = await check();
  } catch (err) {
    await repo.endAttempt(ex, keys.account);
    await repo.endAttempt(ex, keys.address);
    throw err;
  }
  if (result === null) await recordFailure(ex, keys);
  else {
    await repo.endAttempt(ex, keys.account, { clear: clearOnSuccess });
    await repo.endAttempt(ex, keys.address);
  }
  return result;
}

/** Throws the 429 of a refused reservation: until the longer lock, or a second while attempts are in flight. */
async function refuse(ex: Executor, keys: ThrottleKeys, now: number): Promise<never> {
  await checkThrottle(ex, keys, now);
  throw rateLimited(1, 'Too many sign-in attempts at once');
}

async function recordFailure(ex: Executor, keys: ThrottleKeys, now = Date.now()): Promise<void> {
  const nowIso = new Date(now).toISOString();
  const resetBefore = new Date(now - THROTTLE.resetAfterMs).toISOString();
  for (const [key, free] of [
    [keys.account, THROTTLE.accountFreeFailures],
    [keys.address, THROTTLE.addressFreeFailures],
  ] as const) {
    const delay = delayAfter(await repo.countFailure(ex, key, nowIso, resetBefore), free);
    await repo.endAttempt(ex, key, delay > 0 ? { lockUntil: new Date(now + delay).toISOString() } : {});
  }
}

/** Counts a failure against the address alone (a one-time link's secret has no account to count against). */
export async function recordAddressFailure(ex: Executor, addressKey: string, now = Date.now()): Promise<void> {
  const failures = await repo.countFailure(
    ex,
    addressKey,
    new Date(now).toISOString(),
    new Date(now - THROTTLE.resetAfterMs).toISOString(),
  );
  const delay = delayAfter(failures, THROTTLE.addressFreeFailures);
  if (delay > 0) await repo.lockUntil(ex, addressKey, new Date(now + delay).toISOString());
}
