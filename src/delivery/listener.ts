import type pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../shared/config.js';
import { type Db, isPostgres } from '../shared/db/database.js';
import { DeadlineClient, pgClientConfig } from '../shared/db/postgres.js';
import { PG_CHANNEL } from './signal.js';

export interface ListenerDeps {
  db: Db;
  config: Config;
  log: Pick<Logger, 'warn'>;
  /** Search path for the LISTEN connection (tests keep each file in its own schema). */
  pgSchema?: string;
  /** Called for each notification of this schema, and once the connection is (back) up. */
  onWake: () => void;
  /** The worker's state: a stopped worker neither keeps nor reopens the connection. */
  isRunning: () => boolean;
}

export interface Listener {
  /** LISTEN on PostgreSQL (nothing on SQLite: the in-process signal is all there is). */
  start(): Promise<void>;
  /** No reconnect from now on (stop has begun). */
  stopReconnecting(): void;
  /** Closes the connection. */
  close(): Promise<void>;
}

/**
 * LISTEN on a dedicated connection. If it drops, reconnect with backoff (polling covers the gap) and wake the
 * worker once back, so nothing notified meanwhile waits for the next poll.
 */
export function createListener(deps: ListenerDeps): Listener {
  const { db, config, log, onWake, isRunning } = deps;
  let listener: pg.Client | null = null;
  let relistenTimer: NodeJS.Timeout | null = null;
  let relistenDelay = 250;

  async function listen(): Promise<void> {
    if (!isPostgres(db) || config.database.kind !== 'postgres' || !isRunning()) return;
    // The pool's settings (connect timeout, read deadline, application_name): a stalled server cannot hang the
    // reconnect, and the client keeps an 'error' listener (a dead connection is not an uncaught exception).
    const client = new DeadlineClient(
      pgClientConfig({
        url: config.database.url,
        timeouts: config.databaseTimeouts,
        ...(deps.pgSchema ? { pgSchema: deps.pgSchema } : {}),
      }),
    );
    let dropped = false;
    const onDrop = (err?: Error) => {
      if (dropped) return;
      dropped = true;
      if (listener === client) listener = null;
      client.end().catch(() => undefined);
      if (!isRunning()) return;
      log.warn({ err, retryInMs: relistenDelay }, 'delivery LISTEN connection lost; polling until it is back');
      relistenTimer = setTimeout(() => {
        relistenTimer = null;
        // A throw before listen() attaches its own handlers would end the reconnect chain: go round again.
        void listen().catch((err: Error) => {
          dropped = false;
          onDrop(err);
        });
      }, relistenDelay);
      relistenDelay = Math.min(relistenDelay * 2, 30_000);
    };
    // Only this schema's commits wake it (the payload is the committing schema; '' from older versions: any).
    let schema: string | undefined;
    client.on('notification', (msg) => {
      if (!msg.payload || msg.payload === schema) onWake();
    });
    client.on('error', onDrop);
    client.on('end', () => onDrop());
    try {
      await client.connect();
      schema = (await client.query<{ s: string }>('select current_schema() as s')).rows[0]?.s;
      await client.query(`LISTEN ${PG_CHANNEL}`);
    } catch (err) {
      onDrop(err as Error);
      return;
    }
    if (!isRunning()) {
      // Stopped while reconnecting: an open connection here would keep the process alive after stop().
      dropped = true;
      await client.end().catch(() => undefined);
      return;
    }
    listener = client;
    relistenDelay = 250;
    onWake();
  }

  const stopReconnecting = () => {
    if (relistenTimer) clearTimeout(relistenTimer);
    relistenTimer = null;
  };

  return {
    start: listen,
    stopReconnecting,
    async close() {
      stopReconnecting();
      await listener?.end().catch(() => undefined);
    },
  };
}
