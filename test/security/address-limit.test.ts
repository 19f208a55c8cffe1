import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../helpers/harness.js';

// Issue 9, item 9: requests that do not authenticate are limited per client address before any token is hashed
// or looked up (src/server/address-limit.ts); requests that authenticate do not spend that budget.

let h: Harness;
const LIMIT = 20;

beforeAll(async () => {
  h = await startHarness({ RATE_LIMIT_PER_ADDRESS_PER_MINUTE: String(LIMIT) });
});
afterAll(async () => {
  await h?.close();
});

const from = (remoteAddress: string, token: string | null, url = '/labs') =>
  h.app.inject({ method: 'GET', url, remoteAddress, headers: token ? { 'access-token': token } : {} });

describe('per-address limit before authentication', () => {
  it('unknown tokens and no token: 401 up to the budget, then 429 rate_limited with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 10; i++) {
      const res = await from('198.51.100.7', i % 2 ? 'lst_not-a-real-token' : null);
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(res.json()).toEqual({ message: expect.any(String), code: 'rate_limited', request_id: expect.any(String) });
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
    }
    expect(statuses.slice(0, LIMIT).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(LIMIT).every((s) => s === 429)).toBe(true);
  });

  it('another address is not affected, and an IPv6 host is counted by its /64', async () => {
    expect((await from('198.51.100.8', null)).statusCode).toBe(401);
    for (let i = 0; i < LIMIT; i++) expect((await from(`2001:db8:1:2::${(i + 1).toString(16)}`, null)).statusCode).toBe(401);
    expect((await from('2001:db8:1:2:ffff::1', null)).statusCode).toBe(429);
    expect((await from('2001:db8:1:3::1', null)).statusCode).toBe(401);
  });

  it('requests that authenticate do not spend the budget', async () => {
    for (let i = 0; i < LIMIT * 2; i++) expect((await from('198.51.100.9', h.a.admin.token)).statusCode).toBe(200);
    expect((await from('198.51.100.9', null)).statusCode).toBe(401);
  });

  it('open routes count too (health, the document)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 1; i++) statuses.push((await from('198.51.100.10', null, '/healthz')).statusCode);
    expect(statuses.slice(0, LIMIT).every((s) => s === 200)).toBe(true);
    expect(statuses[LIMIT]).toBe(429);
  });
});
