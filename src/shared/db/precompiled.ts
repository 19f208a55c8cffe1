import { type Compilable, type CompiledQuery, createQueryId, type InferResult, type QueryResult } from 'kysely';
import { type Executor, isPostgres } from './database.js';
import { reportTableWrite, tableWriteOf } from './table-writes.js';

// The hottest reads (GET of one item: docs/performance.md, "Issue 15") spent about a fifth of their CPU in Kysely
// building and compiling the same statement again for every request. A precompiled query is built and compiled once
// per shape, with stand-ins where the caller's values go; each call copies the compiled text and puts its values in.
// The hot writes (docs/decisions/0030-precompiled-writes.md) use the same, and run their statements as one batch.

/** A stand-in no caller sends: a NUL and a counter. */
const standIn = (i: number) => `\u0000precompiled:${i}\u0000`;

type Slot = { arg: number } | { value: unknown };

export interface Precompiled<A extends unknown[], Q extends Compilable> {
  /** Runs the statement and returns its rows. */
  (ex: Executor, shape: string, ...args: A): Promise<InferResult<Q>>;
  /** The statement with its values, to run later: alone (executeCompiled) or in a batch (runWrites). */
  bind(ex: Executor, shape: string, ...args: A): CompiledQuery;
}

/**
 * A query built by `build` from its arguments, compiled once per `shape` (what changes the statement's text, e.g.
 * the caller's role, or the number of rows of an insert) and run with the arguments of each call. An argument may
 * only be a value of the statement (or go unused in a shape), never decide its text: `build` only ever sees
 * stand-ins. Each use is checked against its builder run afresh (src/shared/db/precompiled.test.ts).
 */
export function precompiled<A extends unknown[], Q extends Compilable>(
  build: (ex: Executor, shape: string, ...args: A) => Q,
): Precompiled<A, Q> {
  const compiled = new Map<string, { query: CompiledQuery; slots: Slot[] }>();

  function compile(ex: Executor, key: string, shape: string, arity: number) {
    const args = Array.from({ length: arity }, (_, i) => standIn(i)) as A;
    const query = build(ex, shape, ...args).compile();
    const slots = query.parameters.map((p): Slot => {
      const arg = args.indexOf(p);
      return arg >= 0 ? { arg } : { value: p };
    });
    const entry = { query, slots };
    compiled.set(key, entry);
    return entry;
  }

  function bind(ex: Executor, shape: string, ...args: A): CompiledQuery {
    // One process may hold both databases (tests): their statements differ.
    const key = `${isPostgres(ex) ? 'pg' : 'sqlite'}:${shape}`;
    const { query, slots } = compiled.get(key) ?? compile(ex, key, shape, args.length);
    return {
      query: query.query,
      queryId: createQueryId(),
      sql: query.sql,
      parameters: slots.map((s) => ('arg' in s ? args[s.arg] : s.value)),
    };
  }

  const run = async (ex: Executor, shape: string, ...args: A) =>
    (await executeCompiled(ex, bind(ex, shape, ...args))).rows as InferResult<Q>;
  return Object.assign(run, { bind });
}

/**
 * Runs a compiled statement as Kysely would have, telling the table-write listeners (./table-writes.ts) what it
 * wrote: a statement run from its compiled form skips the plugins, which would otherwise not hear it.
 */
export async function executeCompiled<R>(ex: Executor, query: CompiledQuery): Promise<QueryResult<R>> {
  const result = await ex.executeQuery<R>(query);
  const write = tableWriteOf(query.query);
  if (write) reportTableWrite(write);
  return result;
}

/**
 * Runs writes as few statements as the database allows, in order. None may read or change a row an earlier one of
 * the batch writes: PostgreSQL runs them on one snapshot, so each reads the rows as they were before the batch (as
 * SQLite, one after the other, does for the rows later ones write). Only the last one's rows come back. On
 * PostgreSQL one statement, each but the last as a data-modifying WITH (which PostgreSQL runs to completion whether
 * or not anything reads it; foreign keys are checked at the end of the statement, so a row may point at one
 * inserted beside it); on SQLite, which has no such statement, one after the other (each a prepared statement of
 * the cache). Call it inside the transaction of the change.
 */
export async function runWrites<R>(ex: Executor, queries: CompiledQuery[]): Promise<QueryResult<R>> {
  if (queries.length === 0) return { rows: [] };
  if (queries.length === 1 || !isPostgres(ex)) {
    let last: QueryResult<R> = { rows: [] };
    for (const q of queries) last = await executeCompiled<R>(ex, q);
    return last;
  }
  const parameters: unknown[] = [];
  const parts = queries.map((q) => {
    // PostgreSQL takes a data-modifying WITH only at the top of a statement.
    if (/^\s*with\b/i.test(q.sql)) throw new Error(`runWrites: a statement with its own WITH cannot join a batch: ${q.sql}`);
    const offset = parameters.length;
    parameters.push(...q.parameters);
    // Kysely's PostgreSQL compiler writes values only as $n placeholders, never as literals holding a $.
    return offset === 0 ? q.sql : q.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
  });
  const last = parts.pop()!;
  const text = `with ${parts.map((p, i) => `w${i} as (${p})`).join(', ')} ${last}`;
  const result = await ex.executeQuery<R>({ query: queries.at(-1)!.query, queryId: createQueryId(), sql: text, parameters });
  for (const q of queries) {
    const write = tableWriteOf(q.query);
    if (write) reportTableWrite(write);
  }
  return result;
}
