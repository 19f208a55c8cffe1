import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  PostgresDialect,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import pg from 'pg';
import { preparedNameOf } from './prepared-names.js';

// How Labstock talks to PostgreSQL when the server or the network misbehaves (docs/decisions/0003-database-failures.md):
// every connection has timeouts, a lost connection is an error of the request that used it (never of the process),
// and a plain read that lost its connection is tried again on a fresh one.

export interface PgTimeouts {
  /** Opening a connection, and waiting for a free one in a full pool. */
  connectMs: number;
  /** PostgreSQL's statement_timeout; 0 leaves it (and the read deadline) off, as schema migrations need. */
  statementMs: number;
  /** PostgreSQL's idle_in_transaction_session_timeout. */
  idleInTransactionMs: number;
}

export const DEFAULT_PG_TIMEOUTS: PgTimeouts = { connectMs: 5000, statementMs: 30_000, idleInTransactionMs: 60_000 };

export interface PgConnectionOptions {
  url: string;
  timeouts: PgTimeouts;
  /** Search path (tests keep each file in its own schema). */
  pgSchema?: string;
  /** Shown in pg_stat_activity; an `application_name` in the URL wins. */
  applicationName?: string;
  /** Keep the statements run most often prepared on each connection (DATABASE_PREPARED_STATEMENTS). */
  prepare?: boolean;
}

/** A statement that had no answer within its read deadline (a stalled server or network). */
export class DatabaseDeadlineError extends Error {
  constructor(ms: number) {
    super(`PostgreSQL did not answer within ${ms} ms`);
    this.name = 'DatabaseDeadlineError';
  }
}

type DeadlineConfig = pg.ClientConfig & { readDeadlineMs?: number; prepare?: boolean };

/**
 * A pg client whose statements fail after a read deadline. statement_timeout is enforced by the server, so it
 * cannot end a wait for a server or network that stopped answering; pg's own query_timeout rejects the promise but
 * leaves the statement active on the connection, so the next user of that pooled connection would wait behind it.
 * Here the socket is destroyed: the statement fails, the client is no longer queryable and the pool discards it.
 * The client also keeps an 'error' listener for its whole life: pg emits 'error' on a client whose connection
 * dies, and an EventEmitter without a listener turns that into an uncaught exception (the process exits).
 */
export class DeadlineClient extends pg.Client {
  readonly readDeadlineMs: number;
  /** Whether the statements run most often are kept prepared on this connection (./prepared-names.ts). */
  prepares: boolean;
  constructor(config: DeadlineConfig) {
    super(config);
    this.readDeadlineMs = config.readDeadlineMs ?? 0;
    this.prepares = config.prepare ?? false;
    this.on('error', () => undefined); // the statement in flight (if any) fails with this error itself
  }
}

// pg.Client#query has a dozen overloads; the deadline wraps the promise form, the only one Kysely and the worker use.
const baseQuery = pg.Client.prototype.query;
// Kysely calls it as (text, values); a text run often goes as a named statement, parsed and planned once per
// connection (./prepared-names.ts).
DeadlineClient.prototype.query = function query(this: DeadlineClient, ...args: unknown[]) {
  const [text, values] = args;
  const name = this.prepares && args.length === 2 && typeof text === 'string' && Array.isArray(values) ? preparedNameOf(text) : undefined;
  let result = (baseQuery as (...a: unknown[]) => unknown).apply(this, name ? [{ name, text, values }] : args);
  if (name && result instanceof Promise) {
    result = result.catch((err: unknown) => {
      // A table changed under a prepared statement (a migration while we run): plan afresh from now on.
      if (isStalePlan(err)) this.prepares = false;
      throw err;
    });
  }
  if (!(result instanceof Promise) || this.readDeadlineMs <= 0) return result;
  const timer = setTimeout(() => this.connection.stream.destroy(new DatabaseDeadlineError(this.readDeadlineMs)), this.readDeadlineMs);
  return result.finally(() => clearTimeout(timer));
} as typeof baseQuery;

/** PostgreSQL's refusal to run a prepared statement whose tables changed the shape of its rows. */
export function isStalePlan(err: unknown): boolean {
  return (
    (err as { code?: unknown } | null)?.code === '0A000' && /cached plan must not change result type/.test(String((err as Error).message))
  );
}

/** Connection settings shared by the pool and the delivery worker's LISTEN connection. */
export function pgClientConfig(o: PgConnectionOptions): DeadlineConfig {
  const t = o.timeouts;
  return {
    connectionString: o.url,
    application_name: o.applicationName ?? (o.pgSchema ? `labstock/${o.pgSchema}` : 'labstock'),
    connectionTimeoutMillis: t.connectMs,
    // A server that stopped answering is found by the deadline below; keepalive finds a dead idle peer eventually.
    keepAlive: true,
    ...(t.statementMs > 0 ? { statement_timeout: t.statementMs, readDeadlineMs: t.statementMs + t.connectMs } : {}),
    ...(t.idleInTransactionMs > 0 ? { idle_in_transaction_session_timeout: t.idleInTransactionMs } : {}),
    // No JIT: it compiles any statement whose estimate passes jit_above_cost, 20-50 ms before the first row, and
    // the estimates of short reads over a million rows pass it (docs/decisions/0033-postgres-prepared-statements.md).
    options: `-c jit=off${o.pgSchema ? ` -c search_path=${o.pgSchema}` : ''}`,
    ...(o.prepare ? { prepare: true } : {}),
  };
}

/** Errors of a connection that went away (safe to retry a read on another connection), not of the statement. */
export function isConnectionLost(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.code === '57P01' || e.code === '57P02' || e.code === 'ECONNRESET' || e.code === 'EPIPE') return true;
  return (
    typeof e.message === 'string' && /^(Connection terminated|Client has encountered a connection error|Client was closed)/.test(e.message)
  );
}

/** A SELECT (or WITH … SELECT) that takes no lock: running it twice changes nothing. */
export function isPlainRead(text: string): boolean {
  const t = text.trimStart().toLowerCase();
  return (
    (t.startsWith('select') || t.startsWith('with')) &&
    !/\b(insert|update|delete|for\s+(update|share|no\s+key\s+update|key\s+share))\b/.test(t)
  );
}

/** Connections that know whether they are inside a transaction (a statement there is never repeated alone). */
class TrackedConnection implements DatabaseConnection {
  inTransaction = false;
  constructor(
    readonly inner: DatabaseConnection,
    private readonly clientConfig: DeadlineConfig,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return await this.inner.executeQuery<R>(query);
    } catch (err) {
      // A SELECT outside a transaction changes nothing, so it is tried again, once. Writes and anything in a
      // transaction fail (503): whether they committed is unknown, or the transaction is gone.
      // A stale prepared statement ran nothing; its connection now plans afresh, so the statement is run again
      // there, unless a transaction it belonged to is now aborted.
      if (isStalePlan(err) && !this.inTransaction) return await this.inner.executeQuery<R>(query);
      if (this.inTransaction || !isConnectionLost(err) || !isPlainRead(query.sql)) throw err;
      // On a new connection, not the pool's: when the server killed one connection it usually killed them all,
      // and the pool's idle ones may not have read their death yet.
      const client = new DeadlineClient(this.clientConfig);
      try {
        await client.connect();
        const { rows } = await client.query(query.sql, [...query.parameters]);
        return { rows: rows as R[] };
      } finally {
        await client.end().catch(() => undefined);
      }
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class TrackingDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly clientConfig: DeadlineConfig,
  ) {}
  init = () => this.inner.init();
  destroy = () => this.inner.destroy();
  async acquireConnection(): Promise<DatabaseConnection> {
    return new TrackedConnection(await this.inner.acquireConnection(), this.clientConfig);
  }
  async releaseConnection(c: DatabaseConnection): Promise<void> {
    await this.inner.releaseConnection((c as TrackedConnection).inner);
  }
  async beginTransaction(c: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    (c as TrackedConnection).inTransaction = true;
    await this.inner.beginTransaction(c, settings);
  }
  async commitTransaction(c: DatabaseConnection): Promise<void> {
    await this.inner.commitTransaction(c);
    (c as TrackedConnection).inTransaction = false;
  }
  async rollbackTransaction(c: DatabaseConnection): Promise<void> {
    await this.inner.rollbackTransaction(c);
    (c as TrackedConnection).inTransaction = false;
  }
  async savepoint(c: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.savepoint!(c, name, compile);
  }
  async rollbackToSavepoint(c: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.rollbackToSavepoint!(c, name, compile);
  }
  async releaseSavepoint(c: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.releaseSavepoint!(c, name, compile);
  }
}

/** Kysely's PostgreSQL dialect with reads retried after a lost connection. */
export class ResilientPostgresDialect extends PostgresDialect {
  constructor(
    pool: pg.Pool,
    private readonly clientConfig: DeadlineConfig,
  ) {
    super({ pool });
  }
  override createDriver(): Driver {
    return new TrackingDriver(super.createDriver(), this.clientConfig);
  }
}

/** The pool and the dialect over it, with one set of connection settings. */
export function postgresDialect(o: PgConnectionOptions & { max: number; onError?: (err: Error) => void }): ResilientPostgresDialect {
  const clientConfig = pgClientConfig(o);
  const pool = new pg.Pool({ ...clientConfig, max: o.max, Client: DeadlineClient as unknown as new () => pg.ClientBase });
  // Without a listener, an idle connection's death ('error' from pg-pool) is an uncaught exception.
  pool.on('error', (err) => o.onError?.(err));
  return new ResilientPostgresDialect(pool, clientConfig);
}
