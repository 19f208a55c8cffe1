import { describe, expect, it } from 'vitest';
import { afterAttempt, MAX_RETRY_AFTER_MS, shouldDisable, withJitter } from './rules.js';

const schedule = [10_000, 100_000, 1_000_000];
const fail = { outcome: 'http_error', statusCode: 500, retryAfterMs: null };

describe('delivery rules', () => {
  it('succeeds on success', () => {
    expect(afterAttempt({ outcome: 'success', statusCode: 204, retryAfterMs: null }, 1, schedule)).toEqual({ kind: 'succeeded' });
  });

  it('retries after each scheduled wait, then gives up after the last', () => {
    expect(afterAttempt(fail, 1, schedule, 0.5)).toEqual({ kind: 'retry', delayMs: 10_000 });
    expect(afterAttempt(fail, 2, schedule, 0.5)).toEqual({ kind: 'retry', delayMs: 100_000 });
    expect(afterAttempt(fail, 3, schedule, 0.5)).toEqual({ kind: 'retry', delayMs: 1_000_000 });
    expect(afterAttempt(fail, 4, schedule, 0.5)).toEqual({ kind: 'failed' });
  });

  it('spreads waits by at most 10%', () => {
    expect(withJitter(1000, 0)).toBe(900);
    expect(withJitter(1000, 1)).toBe(1100);
  });

  it('honours a longer Retry-After, capped at a day, and never waits less than planned', () => {
    expect(afterAttempt({ outcome: 'http_error', statusCode: 429, retryAfterMs: 60_000 }, 1, schedule, 0.5)).toEqual({
      kind: 'retry',
      delayMs: 60_000,
    });
    expect(afterAttempt({ outcome: 'http_error', statusCode: 503, retryAfterMs: 1 }, 1, schedule, 0.5)).toEqual({
      kind: 'retry',
      delayMs: 10_000,
    });
    expect(afterAttempt({ outcome: 'http_error', statusCode: 429, retryAfterMs: 10 * MAX_RETRY_AFTER_MS }, 1, schedule, 0.5)).toEqual({
      kind: 'retry',
      delayMs: MAX_RETRY_AFTER_MS,
    });
  });

  it('stops on 410 Gone whatever the schedule', () => {
    expect(afterAttempt({ outcome: 'http_error', statusCode: 410, retryAfterMs: null }, 1, schedule)).toEqual({ kind: 'gone' });
  });

  it('disables after a sustained failure only', () => {
    const now = Date.parse('2026-11-21T12:00:00.000Z');
    expect(shouldDisable(null, now, 1000)).toBe(false);
    expect(shouldDisable('2026-11-21T11:59:59.500Z', now, 1000)).toBe(false);
    expect(shouldDisable('2026-11-21T11:59:59.000Z', now, 1000)).toBe(true);
  });
});
