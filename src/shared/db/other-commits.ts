import type SQLite from 'better-sqlite3';

// Whether another connection has committed to a SQLite database since we last looked: PRAGMA data_version on the
// handle's own connection changes when any other connection (another process: the command line, a separate
// worker) commits, and never for this connection's own commits. It reads a counter SQLite keeps anyway (about a
// microsecond, no table is read). The server and its worker share one connection (src/cli/serve.ts), so on a
// server only other processes move it.

const connections = new WeakMap<object, SQLite.Database>();

/** openDatabase records the connection behind each SQLite handle it opens. */
export function rememberSqliteConnection(db: object, sqlite: SQLite.Database): void {
  connections.set(db, sqlite);
}

/** The connection behind a SQLite handle from openDatabase; null for any other handle. */
export const sqliteConnectionOf = (db: object): SQLite.Database | null => connections.get(db) ?? null;

/**
 * For a SQLite handle from openDatabase: a function answering whether another connection has committed since its
 * previous call (false on the first), or null when it cannot tell (the handle is closed, the connection busy).
 * Null for any other handle.
 */
export function otherCommitsWatch(db: object): (() => boolean | null) | null {
  const sqlite = connections.get(db);
  if (!sqlite) return null;
  let read: () => unknown;
  try {
    const statement = sqlite.prepare('PRAGMA data_version').pluck();
    read = () => statement.get();
  } catch {
    return null;
  }
  let last: unknown;
  try {
    last = read();
  } catch {
    return null;
  }
  return () => {
    try {
      const now = read();
      if (now === last) return false;
      last = now;
      return true;
    } catch {
      return null;
    }
  };
}
