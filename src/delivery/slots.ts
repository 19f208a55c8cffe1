import type { Config } from '../shared/config.js';
import type { SendResult } from './sender.js';

/** Slow webhooks the claim may start one attempt each for, when there are more of them than the lane has room. */
export interface LaneBound {
  hooks: string[];
  /** How many of them the claim may start in all: the oldest due first. */
  free: number;
}

/** More slow marks than this and the oldest idle one is forgotten: each costs every claim a condition. */
const MAX_SLOW = 1000;

/**
 * A worker's attempts in flight per webhook, against WEBHOOK_CONCURRENCY_PER_ENDPOINT: a receiver that hangs holds
 * at most that many of the worker's slots, and the claim (claim-repository.ts) gives the others to other webhooks.
 *
 * Several receivers hanging at once would still take every slot (two at the default share), so a webhook whose
 * last attempt here timed out, failed without an HTTP answer, or answered after half the timeout is slow until an
 * attempt is answered in time: the slow ones share a lane of `lane` attempts in flight, one each. Whatever hangs,
 * the rest of the worker stays for the webhooks that answer.
 *
 * It also tells the loop when a claim can find something new. After a claim that took less than it asked for,
 * everything due was taken except the deliveries of webhooks at their limit; a finishing attempt of any other
 * webhook frees a slot nothing is waiting for. Only once a limited webhook has half its share free again (a slow
 * one: its one attempt, with the lane not full) is a claim worth its query (in batches, as the loop claims for the
 * whole worker); otherwise an attempt to a webhook with a backlog would cost one claim per finished attempt.
 */
export class EndpointSlots {
  private readonly inFlight = new Map<string, number>();
  /** The organization of each webhook in flight, and the attempts in flight per organization (the claim's turns). */
  private readonly orgOf = new Map<string, string>();
  private readonly orgInFlight = new Map<string, number>();
  /** Webhooks at their limit after the last claim: they may have more due. */
  private limited = new Set<string>();
  private readonly refill: number;
  private readonly slow = new Set<string>();
  /** The attempts in flight of slow webhooks (kept as they change: release runs once per attempt). */
  private laneUsed = 0;

  constructor(
    readonly perEndpoint: number,
    readonly lane = perEndpoint,
    private readonly slowAfterMs = Infinity,
  ) {
    this.refill = Math.max(0, perEndpoint - Math.ceil(perEndpoint / 2));
  }

  /**
   * What each webhook may still start (0: none): every slow webhook (so the claim never gives one a full share), and
   * every other webhook with attempts in flight; any webhook not listed: `perEndpoint`.
   */
  room(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [hook, n] of this.inFlight) if (!this.slow.has(hook)) out.set(hook, Math.max(0, this.perEndpoint - n));
    const laneFull = this.laneUsed >= this.lane;
    for (const hook of this.slow) out.set(hook, laneFull || this.inFlight.has(hook) ? 0 : 1);
    return out;
  }

  /**
   * room() lets each idle slow webhook start one attempt; when they are more than the lane has room for, the claim
   * must take at most `free` of theirs in all (null: no such bound).
   */
  laneBound(): LaneBound | null {
    const free = this.lane - this.laneUsed;
    if (free <= 0) return null; // room() already gives every slow webhook 0
    const hooks = [...this.slow].filter((hook) => !this.inFlight.has(hook));
    return hooks.length > free ? { hooks, free } : null;
  }

  isSlow(hook: string): boolean {
    return this.slow.has(hook);
  }

  /** Attempts in flight per webhook and per organization: the turns each has had (claim-repository.ts). */
  load(): { hooks: ReadonlyMap<string, number>; orgs: ReadonlyMap<string, number> } {
    return { hooks: this.inFlight, orgs: this.orgInFlight };
  }

  /** An attempt starts; `org`: its webhook's organization (null when unknown: the delivery is gone). */
  take(hook: string, org: string | null = null): void {
    this.inFlight.set(hook, (this.inFlight.get(hook) ?? 0) + 1);
    if (org !== null && !this.orgOf.has(hook)) this.orgOf.set(hook, org);
    const o = this.orgOf.get(hook);
    if (o !== undefined) this.orgInFlight.set(o, (this.orgInFlight.get(o) ?? 0) + 1);
    if (this.slow.has(hook)) this.laneUsed += 1;
  }

  /**
   * Called after each claim has taken its deliveries (`took`: their webhooks). Returns true when the claim filled
   * a webhook's room: it may have had more due than the claim ranked, hiding other webhooks' deliveries.
   */
  claimed(took: Iterable<string>): boolean {
    this.limited = new Set([...this.room()].filter(([, n]) => n <= 0).map(([hook]) => hook));
    for (const hook of took) if (this.limited.has(hook)) return true;
    return false;
  }

  /**
   * An attempt ended (`result`: what the receiver did, if it was sent); true when it left a limited webhook with
   * room for a batch worth claiming, or opened a full lane to a limited slow webhook.
   */
  release(hook: string, result?: Pick<SendResult, 'outcome' | 'durationMs'>): boolean {
    const laneWasFull = this.laneUsed >= this.lane;
    const was = this.inFlight.get(hook) ?? 0;
    if (was > 0 && this.slow.has(hook)) this.laneUsed -= 1;
    const n = Math.max(0, was - 1);
    const org = this.orgOf.get(hook);
    if (was > 0 && org !== undefined) {
      const left = (this.orgInFlight.get(org) ?? 1) - 1;
      if (left <= 0) this.orgInFlight.delete(org);
      else this.orgInFlight.set(org, left);
    }
    if (n <= 0) {
      this.inFlight.delete(hook);
      this.orgOf.delete(hook);
    } else this.inFlight.set(hook, n);
    if (result) this.mark(hook, result, n);
    const laneFull = this.laneUsed >= this.lane;
    if (laneWasFull && !laneFull && [...this.limited].some((h) => this.slow.has(h) && !this.inFlight.has(h))) return true;
    if (!this.limited.has(hook)) return false;
    if (this.slow.has(hook) ? n > 0 || laneFull : n > this.refill) return false;
    this.limited.delete(hook);
    return true;
  }

  /** Slow on a hang, a failure without an answer or a late answer; healthy again on an answer in time. */
  private mark(hook: string, result: Pick<SendResult, 'outcome' | 'durationMs'>, inFlight: number): void {
    const answered = result.outcome === 'success' || result.outcome === 'http_error' || result.outcome === 'redirect';
    const late = result.outcome === 'timeout' || result.outcome === 'network_error' || result.durationMs > this.slowAfterMs;
    if (late && !this.slow.has(hook)) {
      if (this.slow.size >= MAX_SLOW) this.forgetOne();
      this.slow.add(hook);
      this.laneUsed += inFlight;
    } else if (answered && !late && this.slow.delete(hook)) {
      this.laneUsed -= inFlight;
    }
  }

  private forgetOne(): void {
    for (const hook of this.slow) {
      if (this.inFlight.has(hook)) continue;
      this.slow.delete(hook);
      return;
    }
  }
}

/** The worker's slots: the lane is a quarter of WEBHOOK_CONCURRENCY, late is past half of WEBHOOK_TIMEOUT_MS. */
export function slotsFor(config: Pick<Config, 'webhookConcurrency' | 'webhookConcurrencyPerEndpoint' | 'webhookTimeoutMs'>): EndpointSlots {
  return new EndpointSlots(
    Math.min(config.webhookConcurrencyPerEndpoint, config.webhookConcurrency),
    Math.max(1, Math.floor(config.webhookConcurrency / 4)),
    config.webhookTimeoutMs / 2,
  );
}
