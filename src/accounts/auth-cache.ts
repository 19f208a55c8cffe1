import { AsyncLocalStorage } from 'node:async_hooks';
import type { Config } from '../shared/config.js';
import { currentSchema, listenChannel, notifyChannel } from '../shared/db/channel.js';
import { type Db, type Executor, isDatabaseUnavailable, isPostgres } from '../shared/db/database.js';
import { otherCommitsWatch } from '../shared/db/other-commits.js';
import { onTableWrite } from '../shared/db/table-writes.js';
import { TOKEN_TOUCH_INTERVAL_MS } from './tokens.js';

// Who a secret names, kept in this process (docs/decisions/0016-auth-cache.md): from the SHA-256 of a token or
// session cookie to what authentication resolved, so that a request whose credential was seen a moment ago runs no
// statement to authenticate. Bounded in size (oldest out first) and age (an entry is checked against the database
// again after TTL_MS whatever else happens). What the entry says is judged again on every use: expiry, idle time,
// rotation and the once-a-minute touch send the request to the database exactly as before (src/accounts/sessions.ts,
// src/accounts/service.ts, src/operators/service.ts).
//
// Forgetting: a service that revokes or changes what a credential may do calls authChanged inside its transaction
// (other processes: PostgreSQL NOTIFY at commit; on SQLite they notice the commit itself, PRAGMA data_version) and
// forgetAuth after the commit (this process); changingAuth does both around one transaction. Any other write of the
// tables entries come from clears the whole cache of this process (src/shared/db/table-writes.ts). An entry is
// served only while the cross-process signal is sound: PostgreSQL's LISTEN connection is up, SQLite's counter
// could be read.

export const TTL_MS = 5_000;
/** SQLite: how often another process's commits are looked for (PRAGMA data_version), at most. */
export const OTHER_COMMITS_EVERY_MS = 50;
export const MAX_ENTRIES = 5_000;
const CHANNEL = 'labstock_auth';

/** Who an entry is about, so that it can be forgotten by any of them. */
export interface Principal {
  /** An access token's or operator token's id, or `session:<id>` (the Actor's tokenId). */
  tokenId: string;
  userId: string;
  organizationId: string | null;
  operatorId: string | null;
}

/** What to forget: one credential, a user's (in one organization, or in all), an operator's. */
export type AuthScope = { tokenId: string } | { userId: string; organizationId?: string } | { operatorId: string };

type Kind = 'token' | 'session' | 'operator';

interface Entry {
  kind: Kind;
  value: unknown;
  who: Principal;
  storedAt: number;
}

const matches = (who: Principal, scope: AuthScope): boolean =>
  'tokenId' in scope
    ? who.tokenId === scope.tokenId
    : 'operatorId' in scope
      ? who.operatorId === scope.operatorId
      : who.userId === scope.userId && (scope.organizationId === undefined || who.organizationId === scope.organizationId);

export class AuthCache {
  private readonly entries = new Map<string, Entry>();
  /** Moves on every forgetting: a lookup that began before one does not store what it read (it may be stale). */
  private generation = 0;

  constructor(
    /**
     * False while the cross-process signal is not sound: nothing is served then. Called on every lookup, and with
     * `now` before every database lookup: a signal that checks only now and then must check then.
     */
    private readonly sound: (now?: 'now') => boolean,
    private readonly ttlMs = TTL_MS,
    private readonly maxEntries = MAX_ENTRIES,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The entry's value, when it is of this kind, younger than the TTL and the signal is sound. */
  get<T>(kind: Kind, key: string, now: number): T | undefined {
    // The signal is asked first, even with nothing cached: on SQLite it also notes the commits seen so far, so a
    // lookup stored after this one is not thrown away for a commit that came before it.
    if (!this.sound() || this.entries.size === 0) return undefined;
    const entry = this.entries.get(key);
    if (!entry || entry.kind !== kind) return undefined;
    const age = now - entry.storedAt;
    if (age < 0 || age >= this.ttlMs) return undefined;
    return entry.value as T;
  }

  /** Taken before a lookup in the database; `set` stores its result only if nothing was forgotten meanwhile. */
  mark(): number {
    // Other processes' commits so far are noted (and forget what they may have changed) before the lookup, so its
    // result is not thrown away later for a commit that came before it.
    this.sound('now');
    return this.generation;
  }

  set(kind: Kind, key: string, value: unknown, who: Principal, mark: number, now: number): void {
    if (mark !== this.generation) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    // Frozen, two levels deep (the value and the Actor or session row in it): one object serves many requests.
    for (const inner of Object.values(value as object)) if (inner && typeof inner === 'object') Object.freeze(inner);
    this.entries.set(key, { kind, value: Object.freeze(value), who, storedAt: now });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  forget(scope: AuthScope): void {
    this.generation++;
    for (const [key, entry] of this.entries) if (matches(entry.who, scope)) this.entries.delete(key);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}

/** The caches of this process's apps: forgetting reaches every one of them. */
const live = new Set<AuthCache>();

/** After the commit of a change to who a credential names or what it may do: this process forgets it at once. */
export function forgetAuth(...scopes: AuthScope[]): void {
  for (const cache of live) for (const scope of scopes) cache.forget(scope);
}

/** Inside the transaction of such a change: other processes forget it when it commits (PostgreSQL; SQLite needs nothing). */
export async function authChanged(ex: Executor, ...scopes: AuthScope[]): Promise<void> {
  await notifyChannel(ex, CHANNEL, JSON.stringify(scopes));
}

/** Runs `change` in a transaction that tells other processes, then forgets `scopes` here once it has committed. */
export async function changingAuth<T>(db: Db, scopes: AuthScope[], change: (trx: Executor) => Promise<T>): Promise<T> {
  const result = await db.transaction().execute(async (trx) => {
    const r = await change(trx);
    await authChanged(trx, ...scopes);
    return r;
  });
  forgetAuth(...scopes);
  return result;
}

/** Authentication's own writes (touches, the cookie's rotation), whose effect on the cache it sets itself. */
const bookkeeping = new AsyncLocalStorage<true>();
export const asBookkeeping = <T>(write: () => Promise<T>): Promise<T> => bookkeeping.run(true, write);

/**
 * A token's last use (ms) after this request: `lastUsedAt` when it is within TOKEN_TOUCH_INTERVAL_MS, else now,
 * written by `touch` as bookkeeping (the once-a-minute `last_used_at`, which clears no cache).
 */
export async function touchWhenDue(lastUsedAt: string | null, now: number, touch: (at: string) => Promise<unknown>): Promise<number> {
  const usedAt = lastUsedAt ? Date.parse(lastUsedAt) : null;
  if (usedAt !== null && now - usedAt <= TOKEN_TOUCH_INTERVAL_MS) return usedAt;
  try {
    await asBookkeeping(() => touch(new Date(now).toISOString()));
  } catch (err) {
    // The database could not take the write in time (another connection holds SQLite's write lock: a large CSV
    // import, src/inventory/csv/import.ts): a read is still answered; the next request touches instead.
    if (!isDatabaseUnavailable(err)) throw err;
    return usedAt ?? now;
  }
  return now;
}

// Any other update or delete of the tables entries are read from, from anywhere in this process, forgets everything
// here: a write that forgot to call forgetAuth costs lookups, never a stale answer (new rows change no entry).
const SOURCES = new Set(['access_tokens', 'sessions', 'org_memberships', 'operator_tokens', 'operators']);
onTableWrite((w) => {
  if (w.kind === 'insert' || !SOURCES.has(w.table) || bookkeeping.getStore()) return;
  for (const cache of live) cache.clear();
});

export interface AuthCacheHandle {
  cache: AuthCache;
  /** Starts the cross-process signal (PostgreSQL: LISTEN); until it is up, nothing is served from the cache. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The cache of one app over `db`. SQLite: every lookup first asks whether another connection has committed since
 * the last one, and if so forgets everything. PostgreSQL: a LISTEN connection; its messages forget what they name,
 * and while it is down nothing is served. Any other handle: no caching at all.
 */
export function createAuthCache(
  db: Db,
  config: Pick<Config, 'database' | 'databaseTimeouts'>,
  log: ChannelLog,
  ttlMs = TTL_MS,
): AuthCacheHandle {
  if (isPostgres(db)) return postgresCache(db, config, log, ttlMs);
  const otherCommits = otherCommitsWatch(db);
  // The counter is read at most every OTHER_COMMITS_EVERY_MS (each read is a statement, ~7 % of a cached GET's CPU):
  // another process's change is still seen well within the second.
  let soundUntil = 0;
  const cache: AuthCache = new AuthCache((at?: 'now'): boolean => {
    if (!live.has(cache)) return false;
    const now = Date.now();
    if (at !== 'now' && now < soundUntil) return true;
    const changed = otherCommits?.() ?? null;
    if (changed) cache.clear();
    soundUntil = changed === false ? now + OTHER_COMMITS_EVERY_MS : 0;
    return changed === false;
  }, ttlMs);
  return {
    cache,
    async start() {
      if (otherCommits) live.add(cache);
    },
    async close() {
      live.delete(cache);
      cache.clear();
    },
  };
}

type ChannelLog = { warn(obj: object, msg: string): void };

function postgresCache(db: Db, config: Pick<Config, 'database' | 'databaseTimeouts'>, log: ChannelLog, ttlMs: number): AuthCacheHandle {
  let listener: ReturnType<typeof listenChannel> | null = null;
  const cache: AuthCache = new AuthCache(() => listener?.up === true && live.has(cache), ttlMs);
  const heard = (message: string) => {
    let scopes: AuthScope[] | null = null;
    try {
      scopes = JSON.parse(message) as AuthScope[];
    } catch {}
    if (Array.isArray(scopes)) for (const scope of scopes) cache.forget(scope);
    else cache.clear();
  };
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  const start = async (): Promise<void> => {
    if (config.database.kind !== 'postgres' || listener || closed) return;
    let schema: string;
    try {
      schema = await currentSchema(db);
    } catch (err) {
      // Without the schema no message can be matched: the cache stays off (authentication as before) and tries later.
      log.warn({ err: { message: (err as Error).message } }, 'authentication cache off until the database answers');
      retry = setTimeout(() => void start(), 5_000);
      retry.unref();
      return;
    }
    listener = listenChannel({
      url: config.database.url,
      timeouts: config.databaseTimeouts,
      channel: CHANNEL,
      schema,
      onMessage: heard,
      onUp: () => cache.clear(),
      onDown: () => cache.clear(),
      log,
    });
    live.add(cache);
    await listener.start();
  };
  return {
    cache,
    start,
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      live.delete(cache);
      await listener?.close();
      cache.clear();
    },
  };
}
