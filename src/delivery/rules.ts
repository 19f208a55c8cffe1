// Pure decisions of delivery: what happens after an attempt, and when to try next.

export type AfterAttempt = { kind: 'succeeded' } | { kind: 'retry'; delayMs: number } | { kind: 'failed' } | { kind: 'gone' }; // 410: the receiver asks us to stop, so the webhook is disabled

/** A delay from the schedule, spread by ±10% so retries from one outage do not arrive in lockstep. */
export const withJitter = (delayMs: number, random = Math.random()): number => Math.round(delayMs * (0.9 + 0.2 * random));

/** Longest Retry-After we honour; a receiver cannot park a delivery for longer. */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * `attemptsDone` counts the attempt that just finished. The schedule lists the waits before each retry, so a
 * schedule of three gives four attempts in all.
 */
export function afterAttempt(
  result: { outcome: string; statusCode: number | null; retryAfterMs: number | null },
  attemptsDone: number,
  schedule: number[],
  random = Math.random(),
): AfterAttempt {
  if (result.outcome === 'success') return { kind: 'succeeded' };
  if (result.statusCode === 410) return { kind: 'gone' };
  if (attemptsDone > schedule.length) return { kind: 'failed' };
  const planned = withJitter(schedule[attemptsDone - 1]!, random);
  const delayMs = result.retryAfterMs !== null ? Math.min(Math.max(result.retryAfterMs, planned), MAX_RETRY_AFTER_MS) : planned;
  return { kind: 'retry', delayMs };
}

/** A webhook that has not succeeded for `disableAfterMs` since it started failing is disabled. */
export const shouldDisable = (failingSince: string | null, now: number, disableAfterMs: number): boolean =>
  failingSince !== null && now - Date.parse(failingSince) >= disableAfterMs;
