import { sql } from 'kysely';
import type pg from 'pg';
import { type Db, type Executor, isPostgres } from './database.js';
import { DeadlineClient, type PgTimeouts, pgClientConfig } from './postgres.js';

// Messages between processes over PostgreSQL's LISTEN/NOTIFY, one channel per kind of message. A NOTIFY sent
// inside a transaction is delivered at its commit, and not at all if it rolls back, so "changed" and "told" are one
// fact. The message names the sending schema, so several Labstock schemas in one database (tests, a staging copy)
// hear only their own. The delivery worker's wake-up (src/delivery/listener.ts) works the same way.

/** NOTIFY `channel` with `message` (at commit when `ex` is a transaction). Nothing on SQLite. */
export async function notifyChannel(ex: Executor, channel: string, message: string): Promise<void> {
  if (!isPostgres(ex)) return;
  await sql`select pg_notify(${channel}, json_build_object('schema', current_schema(), 'message', ${message}::text)::text)`.execute(ex);
}

/** The schema the handle's statements run in (where it NOTIFYs from). */
export async function currentSchema(db: Db): Promise<string> {
  const { rows } = await sql<{ s: string }>`select current_schema() as s`.execute(db);
  return rows[0]!.s;
}

export interface ChannelListenerOptions {
  url: string;
  timeouts: PgTimeouts;
  channel: string;
  /** Only messages sent from this schema are heard. */
  schema: string;
  onMessage: (message: string) => void;
  /** LISTEN is in place (at start and after every reconnect): what was sent while it was not has been missed. */
  onUp: () => void;
  /** The connection is lost; messages are missed until onUp. */
  onDown: () => void;
  log: { warn(obj: object, msg: string): void };
}

export interface ChannelListener {
  /** Connects and LISTENs; resolves either way (a failure is retried with backoff, onUp tells when it worked). */
  start(): Promise<void>;
  readonly up: boolean;
  close(): Promise<void>;
}

/**
 * LISTEN on a dedicated connection that reconnects with backoff (250 ms doubling to 30 s). Neither the connection
 * nor the retry timer keeps the process alive: whoever started it closes it, and an app a test forgot to close does
 * not hang the run.
 */
export function listenChannel(o: ChannelListenerOptions): ChannelListener {
  if (!/^[a-z_]+$/.test(o.channel)) throw new Error(`not a channel name: ${o.channel}`);
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;
  let delay = 250;
  let closed = false;
  let up = false;

  function retry(err?: Error) {
    if (closed || timer) return;
    o.log.warn({ err: err && { message: err.message }, channel: o.channel, retryInMs: delay }, 'LISTEN connection lost; retrying');
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, delay);
    timer.unref();
    delay = Math.min(delay * 2, 30_000);
  }

  async function connect(): Promise<void> {
    if (closed) return;
    // Named after the channel and schema in pg_stat_activity (PostgreSQL cuts it at 63 characters).
    const applicationName = `labstock/${o.channel}/${o.schema}`;
    const c = new DeadlineClient(pgClientConfig({ url: o.url, timeouts: o.timeouts, applicationName }));
    let dropped = false;
    const drop = (err?: Error) => {
      if (dropped) return;
      dropped = true;
      c.end().catch(() => undefined);
      if (client === c) {
        client = null;
        up = false;
        o.onDown();
      }
      retry(err);
    };
    c.on('error', drop);
    c.on('end', () => drop());
    c.on('notification', (msg) => {
      if (msg.channel !== o.channel || !msg.payload) return;
      let parsed: { schema?: unknown; message?: unknown };
      try {
        parsed = JSON.parse(msg.payload);
      } catch {
        return;
      }
      if (parsed.schema === o.schema && typeof parsed.message === 'string') o.onMessage(parsed.message);
    });
    try {
      await c.connect();
      (c as unknown as { connection: { stream: { unref(): void } } }).connection.stream.unref();
      await c.query(`LISTEN ${o.channel}`);
    } catch (err) {
      drop(err as Error);
      return;
    }
    if (closed) {
      dropped = true;
      await c.end().catch(() => undefined);
      return;
    }
    client = c;
    up = true;
    delay = 250;
    o.onUp();
  }

  return {
    start: connect,
    get up() {
      return up;
    },
    async close() {
      closed = true;
      up = false;
      if (timer) clearTimeout(timer);
      timer = null;
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}
