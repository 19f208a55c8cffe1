import { createHash } from 'node:crypto';
import type { Executor } from '../shared/db/database.js';
import { AppError } from '../shared/errors.js';
import * as repo from './auth-repository.js';

// Sign-in throttling (docs/auth.md): failures are counted per account (the e-mail, known or not, so an unknown
// e-mail is throttled exactly like a known one) and per client address. Past a number of free failures each further
// one locks that key for twice as long as the one before: 1 s, 2 s, 4 s … up to 15 min. A lock ends by itself;
// a success clears the account's count (never the address's, which a guesser with one valid account could reset).
// Counts start again after an hour without failures. Rows live in the database, so every process sees them.

export const THROTTLE = {
  accountFreeFailures: 5,
  addressFreeFailures: 20,
  baseDelayMs: 1000,
  maxDelayMs: 15 * 60_000,
  resetAfterMs: 60 * 60_000,
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

/** 429 rate_limited with Retry-After while either key is locked. */
export async function checkThrottle(ex: Executor, keys: ThrottleKeys, now = Date.now()): Promise<void> {
  const locks = await repo.findLocks(ex, [keys.account, keys.address], new Date(now).toISOString());
  if (locks.length === 0) return;
  const until = Math.max(...locks.map((l) => Date.parse(l.locked_until!)));
  const seconds = Math.max(1, Math.ceil((until - now) / 1000));
  throw new AppError('rate_limited', `Too many failed sign-ins; retry in ${seconds} s`, { headers: { 'Retry-After': String(seconds) } });
}

export async function recordFailure(ex: Executor, keys: ThrottleKeys, now = Date.now()): Promise<void> {
  const nowIso = new Date(now).toISOString();
  const resetBefore = new Date(now - THROTTLE.resetAfterMs).toISOString();
  for (const [key, free] of [
    [keys.account, THROTTLE.accountFreeFailures],
    [keys.address, THROTTLE.addressFreeFailures],
  ] as const) {
    const failures = await repo.countFailure(ex, key, nowIso, resetBefore);
    const delay = delayAfter(failures, free);
    if (delay > 0) await repo.lockUntil(ex, key, new Date(now + delay).toISOString());
  }
}

export const recordSuccess = (ex: Executor, keys: ThrottleKeys): Promise<void> => repo.clearThrottle(ex, keys.account);

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
