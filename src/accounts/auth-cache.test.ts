import { describe, expect, it } from 'vitest';
import { AuthCache, type Principal } from './auth-cache.js';

// The cache's own rules, without a database: bounds, kinds, what each scope forgets, the mark that keeps a lookup
// begun before a forgetting from storing its (maybe stale) answer. test/api/auth/auth-cache*.test.ts run it for real.

const who = (over: Partial<Principal> = {}): Principal => ({
  tokenId: 't1',
  userId: 'u1',
  organizationId: 'o1',
  operatorId: null,
  ...over,
});

const fresh = (sound = () => true, ttl = 1000, max = 10) => new AuthCache(sound, ttl, max);

describe('AuthCache', () => {
  it('serves an entry of the asked kind until its TTL, and nothing while the signal is not sound', () => {
    let sound = true;
    const cache = fresh(() => sound);
    cache.set('token', 'k', { n: 1 }, who(), cache.mark(), 10_000);
    expect(cache.get('token', 'k', 10_000)).toEqual({ n: 1 });
    expect(cache.get('token', 'k', 10_999)).toEqual({ n: 1 });
    expect(cache.get('token', 'k', 11_000)).toBeUndefined();
    // A clock that went back is not trusted either.
    expect(cache.get('token', 'k', 9_999)).toBeUndefined();
    // A session cookie that happens to hash like a token is not that token.
    expect(cache.get('session', 'k', 10_000)).toBeUndefined();
    sound = false;
    expect(cache.get('token', 'k', 10_000)).toBeUndefined();
  });

  it('holds at most its bound, the oldest stored going first', () => {
    const cache = fresh(undefined, 1000, 3);
    for (const k of ['a', 'b', 'c', 'd']) cache.set('token', k, { k }, who({ tokenId: k }), cache.mark(), 0);
    expect(cache.size).toBe(3);
    expect(cache.get('token', 'a', 0)).toBeUndefined();
    // Storing again makes an entry the newest.
    cache.set('token', 'b', { k: 'b' }, who({ tokenId: 'b' }), cache.mark(), 0);
    cache.set('token', 'e', { k: 'e' }, who({ tokenId: 'e' }), cache.mark(), 0);
    expect(cache.get('token', 'b', 0)).toEqual({ k: 'b' });
    expect(cache.get('token', 'c', 0)).toBeUndefined();
  });

  it('forgets by credential, by user in one organization or in all, and by operator', () => {
    const cache = fresh();
    const put = (key: string, p: Partial<Principal>) => cache.set('token', key, { key }, who(p), cache.mark(), 0);
    const left = () => ['t1', 't2', 's1', 'x1', 'op'].filter((k) => cache.get('token', k, 0) !== undefined);
    const fill = () => {
      put('t1', { tokenId: 't1' });
      put('t2', { tokenId: 't2', organizationId: 'o2' });
      put('s1', { tokenId: 'session:s1' });
      put('x1', { tokenId: 'x1', userId: 'u2' });
      put('op', { tokenId: 'op', userId: 'u9', organizationId: null, operatorId: 'p1' });
    };
    fill();
    cache.forget({ tokenId: 'session:s1' });
    expect(left()).toEqual(['t1', 't2', 'x1', 'op']);
    cache.forget({ userId: 'u1', organizationId: 'o1' });
    expect(left()).toEqual(['t2', 'x1', 'op']);
    fill();
    cache.forget({ userId: 'u1' });
    expect(left()).toEqual(['x1', 'op']);
    cache.forget({ operatorId: 'p1' });
    expect(left()).toEqual(['x1']);
    cache.clear();
    expect(left()).toEqual([]);
  });

  it('does not store what a lookup read before something was forgotten', () => {
    const cache = fresh();
    const before = cache.mark();
    cache.forget({ tokenId: 'unrelated' });
    cache.set('token', 'k', { stale: true }, who(), before, 0);
    expect(cache.get('token', 'k', 0)).toBeUndefined();
    const after = cache.mark();
    cache.set('token', 'k', { stale: false }, who(), after, 0);
    expect(cache.get('token', 'k', 0)).toEqual({ stale: false });
  });

  it('hands out frozen values, so no request can change what the next one is given', () => {
    const cache = fresh();
    cache.set('token', 'k', { actor: { role: 'member' } }, who(), cache.mark(), 0);
    const value = cache.get<{ actor: { role: string } }>('token', 'k', 0)!;
    expect(() => {
      value.actor.role = 'admin';
    }).toThrow(TypeError);
  });
});
