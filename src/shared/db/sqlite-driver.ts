import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SelectQueryNode,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteDialectConfig,
} from 'kysely';

// Kysely's SQLite driver (kysely/dist/esm/dialect/sqlite/sqlite-driver.js), with two changes:
//
// - Transactions begin IMMEDIATE: they take the write lock up front and wait for it instead of failing with
//   SQLITE_BUSY when another connection commits between a transaction's first read and its first write.
// - Waiting for the lock does not block the event loop. better-sqlite3 is synchronous, so SQLite's own busy_timeout
//   would stop every request of the process while another connection (a CSV import on its own connection,
//   src/inventory/csv/import.ts; the command line; a separate worker) holds the lock. The connection is opened
//   with busy_timeout 0; a BEGIN or a statement outside a transaction that meets SQLITE_BUSY lets the connection
//   go (reads and other work of the process run meanwhile), waits a moment on a timer and tries again, for at most
//   SQLITE_BUSY_WAIT_MS; then the error stands (HTTP 503 with Retry-After, src/server/http-errors.ts).

/** How long a writer waits for another connection's write lock, in all: what busy_timeout used to be. */
export const SQLITE_BUSY_WAIT_MS = 5000;

const isBusy = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_'));
};
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

class ConnectionMutex {
  #promise: Promise<void> | undefined;
  #resolve: (() => void) | undefined;
  async lock(): Promise<void> {
    while (this.#promise) await this.#promise;
    this.#promise = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }
  unlock(): void {
    const resolve = this.#resolve;
    this.#promise = undefined;
    this.#resolve = undefined;
    resolve?.();
  }
}

class SqliteConnection implements DatabaseConnection {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly raw: SQLite.Database,
    private readonly mutex: ConnectionMutex,
  ) {}

  private run<R>(compiled: CompiledQuery): QueryResult<R> {
    const stmt = this.db.prepare(compiled.sql);
    if (stmt.reader) return { rows: stmt.all(compiled.parameters) as R[] };
    const { changes, lastInsertRowid } = stmt.run(compiled.parameters);
    return {
      numAffectedRows: changes !== undefined && changes !== null ? BigInt(changes) : undefined,
      insertId: lastInsertRowid !== undefined && lastInsertRowid !== null ? BigInt(lastInsertRowid) : undefined,
      rows: [],
    };
  }

  /**
   * Runs the statement; outside a transaction (a BEGIN, or a statement on its own) SQLITE_BUSY is waited out on
   * timers with the connection released meanwhile (the caller holds it: Kysely acquired it for this statement or
   * for the transaction this BEGIN starts, and nothing of ours is open on it yet).
   */
  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const deadline = Date.now() + SQLITE_BUSY_WAIT_MS;
    for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
      try {
        return this.run<R>(compiled);
      } catch (err) {
        if (!isBusy(err) || this.raw.inTransaction || Date.now() + pause > deadline) throw err;
      }
      this.mutex.unlock();
      await sleep(pause);
      await this.mutex.lock();
    }
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const { sql, parameters, query } = compiled;
    if (!SelectQueryNode.is(query)) throw new Error('Sqlite driver only supports streaming of select queries');
    for (const row of this.db.prepare(sql).iterate(parameters)) yield { rows: [row as R] };
  }
}

class ImmediateSqliteDriver implements Driver {
  readonly #mutex = new ConnectionMutex();
  readonly #connection: SqliteConnection;
  constructor(
    private readonly db: SqliteDatabase,
    raw: SQLite.Database,
  ) {
    this.#connection = new SqliteConnection(db, raw, this.#mutex);
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    // SQLite has one connection per handle: whoever acquires it has it alone until release.
    await this.#mutex.lock();
    return this.#connection;
  }
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(): Promise<void> {
    this.#mutex.unlock();
  }
  async destroy(): Promise<void> {
    this.db.close();
  }
}

/** The dialect openDatabase uses for SQLite: Kysely's, with the driver above. */
export class ImmediateSqliteDialect extends SqliteDialect {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly raw: SQLite.Database,
  ) {
    super({ database: db } satisfies SqliteDialectConfig);
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.db, this.raw);
  }
}
