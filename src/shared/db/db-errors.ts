// What an error from either database means to the caller: the same change made at the same moment (409), a
// transaction given up for another (503, retry), the database unreachable (503). Mapped to HTTP in
// src/server/http-errors.ts.

/** A unique-constraint violation on either database (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE/PRIMARYKEY). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed|Cannot use a pool after calling end|driver has already been destroyed|The database connection is not open)/;

/**
 * PostgreSQL gave this transaction up for another one it met (deadlock_detected 40P01, serialization_failure 40001):
 * it rolled back and changed nothing, and the same request tried again a moment later goes through (HTTP 503 with
 * Retry-After, docs/errors.md).
 */
export function isTransientConflict(err: unknown): boolean {
  return errorChain(err).some((e) => e.code === '40P01' || e.code === '40001');
}

/**
 * The database cannot serve the statement now, whatever the statement (HTTP 503, docs/errors.md): PostgreSQL
 * connection exceptions (class 08), shutdown or termination of the server process (57P01–57P03), a statement
 * cancelled by statement_timeout (57014), idle_in_transaction_session_timeout (25P03), too many connections (53300);
 * the network (refused, reset, unreachable); pg's and our own timeouts; SQLite waiting out busy_timeout.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  return errorChain(err).some((e) => {
    const code = typeof e.code === 'string' ? e.code : '';
    if (/^08/.test(code) || ['57P01', '57P02', '57P03', '57014', '25P03', '53300'].includes(code)) return true;
    if (UNAVAILABLE_NODE_CODES.has(code) || code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_')) return true;
    return e.name === 'DatabaseDeadlineError' || (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message));
  });
}

type ErrorLike = { code?: unknown; message?: unknown; name?: unknown; cause?: unknown };
/** The error and the causes it wraps (a driver's error may sit a few `cause`s down), at most five. */
function errorChain(err: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  for (let e = err as ErrorLike | null; e && typeof e === 'object' && chain.length < 5; e = e.cause as ErrorLike | null) chain.push(e);
  return chain;
}
