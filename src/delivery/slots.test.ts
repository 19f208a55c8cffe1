import { describe, expect, it } from 'vitest';
import { EndpointSlots, slotsFor } from './slots.js';

const timeout = { outcome: 'timeout', durationMs: 2000 } as const;
const refused = { outcome: 'network_error', durationMs: 3 } as const;
const late = { outcome: 'success', durationMs: 1500 } as const;
const prompt = { outcome: 'success', durationMs: 12 } as const;
const promptError = { outcome: 'http_error', durationMs: 12 } as const;

/** perEndpoint 8, a lane of 2, late past 1000 ms (WEBHOOK_TIMEOUT_MS 2000). */
const slots = () => new EndpointSlots(8, 2, 1000);
const room = (s: EndpointSlots) => Object.fromEntries(s.room());

describe('EndpointSlots: the slow lane', () => {
  it('takes its sizes from the settings: a quarter of WEBHOOK_CONCURRENCY, at least 1', () => {
    expect(slotsFor({ webhookConcurrency: 16, webhookConcurrencyPerEndpoint: 8, webhookTimeoutMs: 3000 })).toMatchObject({
      perEndpoint: 8,
      lane: 4,
    });
    expect(slotsFor({ webhookConcurrency: 3, webhookConcurrencyPerEndpoint: 2, webhookTimeoutMs: 3000 })).toMatchObject({
      perEndpoint: 2,
      lane: 1,
    });
  });

  it('marks a webhook slow on a timeout, a failure without an answer or a late answer, and clears it on an answer in time', () => {
    const s = slots();
    for (const [result, slow] of [
      [timeout, true],
      [prompt, false],
      [refused, true],
      [promptError, false],
      [late, true],
      [prompt, false],
    ] as const) {
      s.take('a');
      s.release('a', result);
      expect(s.isSlow('a'), `${result.outcome} in ${result.durationMs} ms`).toBe(slow);
    }
    // Blocked by the SSRF guard, or nothing sent: no news of the receiver, the mark stays as it was.
    s.take('a');
    s.release('a', timeout);
    s.take('a');
    s.release('a', { outcome: 'blocked', durationMs: 0 });
    s.take('a');
    s.release('a');
    expect(s.isSlow('a')).toBe(true);
  });

  it('gives a slow webhook room for one attempt even with nothing in flight, and none while one is', () => {
    const s = slots();
    s.take('a');
    s.release('a', timeout);
    expect(room(s)).toEqual({ a: 1 });
    s.take('a');
    expect(room(s)).toEqual({ a: 0 });
    s.take('b');
    expect(room(s)).toEqual({ a: 0, b: 7 });
  });

  it('counts a webhook turning slow with attempts still in flight against the lane', () => {
    const s = slots();
    for (let i = 0; i < 8; i += 1) s.take('a');
    s.release('a', timeout); // 7 still in flight, all in the lane now
    s.take('b');
    s.release('b', timeout);
    expect(room(s)).toEqual({ a: 0, b: 0 });
    for (let i = 0; i < 6; i += 1) s.release('a', timeout);
    expect(room(s)).toEqual({ a: 0, b: 1 }); // 1 of the lane's 2 in use
    s.release('a', timeout);
    expect(room(s)).toEqual({ a: 1, b: 1 });
  });

  it('caps the lane: when full, every slow webhook has no room; when shared, the claim gets the bound', () => {
    const s = slots();
    for (const hook of ['a', 'b', 'c']) {
      s.take(hook);
      s.release(hook, timeout);
    }
    expect(room(s)).toEqual({ a: 1, b: 1, c: 1 });
    expect(s.laneBound()).toEqual({ hooks: ['a', 'b', 'c'], free: 2 }); // three may start, two in all
    s.take('a');
    expect(s.laneBound()).toEqual({ hooks: ['b', 'c'], free: 1 }); // b and c may start, one place left
    s.take('b');
    expect(room(s)).toEqual({ a: 0, b: 0, c: 0 });
    expect(s.laneBound()).toBeNull(); // room() alone leaves them out
    s.take('h'); // a healthy webhook keeps its own share beside a full lane
    expect(room(s)).toEqual({ a: 0, b: 0, c: 0, h: 7 });
    s.release('b', timeout);
    expect(s.laneBound()).toEqual({ hooks: ['b', 'c'], free: 1 });
    s.take('c');
    s.release('c', prompt); // c answers in time: healthy, out of the lane
    expect(s.laneBound()).toBeNull(); // b alone for one place: room() alone is exact
    expect(room(s)).toEqual({ a: 0, b: 1, h: 7 });
  });

  it('frees the lane when a slow webhook answers in time again', () => {
    const s = slots();
    for (const hook of ['a', 'b']) {
      s.take(hook);
      s.release(hook, timeout);
      s.take(hook);
    }
    expect(room(s)).toEqual({ a: 0, b: 0 });
    s.take('a'); // claimed while healthy-looking elsewhere: a second attempt of a
    s.release('a', prompt); // a answers in time: healthy, its other attempt leaves the lane
    expect(room(s)).toEqual({ a: 7, b: 0 });
    expect(s.isSlow('a')).toBe(false);
    s.release('a', prompt);
    s.release('b', timeout);
    expect(room(s)).toEqual({ b: 1 });
  });
});

describe('EndpointSlots: when a claim is worth its query', () => {
  it('a healthy webhook at its limit: once half its share is free, not per finished attempt', () => {
    const s = slots();
    for (let i = 0; i < 8; i += 1) s.take('a');
    expect(s.claimed(['a'])).toBe(true); // filled its room: claim again without it
    const worth = Array.from({ length: 4 }, () => s.release('a', prompt));
    expect(worth).toEqual([false, false, false, true]);
    expect(s.release('a', prompt)).toBe(false); // already counted
  });

  it("a slow webhook at its one attempt: its own end is worth a claim, other webhooks' ends are not", () => {
    const s = slots();
    s.take('a');
    s.release('a', timeout);
    s.take('a');
    s.take('h');
    expect(s.claimed(['a', 'h'])).toBe(true); // a filled its room of 1
    expect(s.release('h', prompt)).toBe(false); // h was not limited
    s.take('h');
    expect(s.release('h', prompt)).toBe(false);
    expect(s.release('a', timeout)).toBe(true); // a may start its next one
    expect(s.release('a', timeout)).toBe(false); // (a stray second release changes nothing)
  });

  it('a full lane: nothing until a lane place frees, then one claim for the slow webhooks waiting', () => {
    const s = slots();
    for (const hook of ['a', 'b', 'c']) {
      s.take(hook);
      s.release(hook, timeout);
    }
    s.take('a');
    s.take('b');
    expect(s.claimed(['a', 'b'])).toBe(true);
    // c waits for the lane (room 0, limited); a healthy webhook's attempts ending do not wake the loop for it.
    s.take('h');
    expect(s.release('h', prompt)).toBe(false);
    expect(s.release('a', timeout)).toBe(true); // the lane has a place: a (or c) may start
    expect(s.claimed([])).toBe(false); // nothing was due after all: no claim again for them
    s.take('h');
    expect(s.release('h', prompt)).toBe(false);
  });

  it('a webhook turning slow with attempts in flight: no claim while they drain through a full lane', () => {
    const s = slots();
    for (let i = 0; i < 8; i += 1) s.take('a');
    expect(s.claimed(['a'])).toBe(true);
    const worth = Array.from({ length: 8 }, () => s.release('a', timeout));
    // 7 in flight in a lane of 2: only the last end leaves a with its one attempt's room.
    expect(worth).toEqual([false, false, false, false, false, false, false, true]);
  });
});

describe('EndpointSlots: the turns each webhook and organization has had', () => {
  const load = (s: EndpointSlots) => ({ hooks: Object.fromEntries(s.load().hooks), orgs: Object.fromEntries(s.load().orgs) });

  it('counts attempts in flight per webhook and per organization, and forgets them as they end', () => {
    const s = slots();
    s.take('a1', 'orgA');
    s.take('a1', 'orgA');
    s.take('a2', 'orgA');
    s.take('b', 'orgB');
    expect(load(s)).toEqual({ hooks: { a1: 2, a2: 1, b: 1 }, orgs: { orgA: 3, orgB: 1 } });
    s.release('a1', prompt);
    s.release('b', prompt);
    expect(load(s)).toEqual({ hooks: { a1: 1, a2: 1 }, orgs: { orgA: 2 } });
    s.release('a1', prompt);
    s.release('a2', timeout);
    expect(load(s)).toEqual({ hooks: {}, orgs: {} });
  });

  it('counts a delivery whose webhook is gone (no organization) for its webhook only', () => {
    const s = slots();
    s.take('gone', null);
    expect(load(s)).toEqual({ hooks: { gone: 1 }, orgs: {} });
    s.release('gone');
    s.release('gone'); // released twice (cannot happen): nothing goes below zero
    expect(load(s)).toEqual({ hooks: {}, orgs: {} });
  });
});
