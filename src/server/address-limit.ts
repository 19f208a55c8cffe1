import { isIPv6 } from 'node:net';
import { AppError } from '../shared/errors.js';

// Per-address budget for requests that do not authenticate (no token, an unknown one, the open routes), so that a
// flood of bad tokens costs a map lookup instead of a hash and a database query each. A request takes a unit
// before its token is looked at and gives it back once the token authenticates: valid tokens are limited per
// token only (RATE_LIMIT_PER_MINUTE, @fastify/rate-limit in src/server/app.ts), never by their address.

const WINDOW_MS = 60_000;
/** Beyond this many addresses in one window new ones are not tracked, so memory stays bounded (~10 MB). */
const MAX_TRACKED = 100_000;

/** IPv4 (also IPv4-mapped IPv6) as is; IPv6 by its /64, since one host commonly holds a whole /64. */
export function addressKey(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('%')[0]!.split('::') as [string, string?];
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

export interface AddressLimit {
  /** Counts one request of this address; 429 rate_limited with Retry-After when its budget is spent. */
  take(ip: string | undefined): void;
  /** Gives back the unit of a request that authenticated. */
  giveBack(ip: string | undefined): void;
}

export function createAddressLimit(perMinute: number, now: () => number = Date.now): AddressLimit | null {
  if (perMinute <= 0) return null;
  let windowStart = now();
  let counts = new Map<string, number>();
  const roll = () => {
    const t = now();
    if (t - windowStart >= WINDOW_MS) {
      windowStart = t;
      counts = new Map();
    }
  };
  return {
    take(ip) {
      roll();
      const key = addressKey(ip);
      const used = counts.get(key) ?? 0;
      if (used >= perMinute) {
        const retryAfter = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now()) / 1000));
        throw new AppError('rate_limited', `Too many requests without a valid access token from this address; retry in ${retryAfter} s`, {
          headers: { 'Retry-After': String(retryAfter) },
        });
      }
      if (used > 0 || counts.size < MAX_TRACKED) counts.set(key, used + 1);
    },
    giveBack(ip) {
      const key = addressKey(ip);
      const used = counts.get(key);
      if (used !== undefined && used > 0) counts.set(key, used - 1);
    },
  };
}
