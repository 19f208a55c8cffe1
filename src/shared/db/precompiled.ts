import { type Compilable, CompiledQuery, type InferResult } from 'kysely';
import { type Executor, isPostgres } from './database.js';

// The hottest reads (GET of one item: docs/performance.md, "Issue 15") spent about a fifth of their CPU in Kysely
// building and compiling the same statement again for every request. A precompiled query is built and compiled once
// per shape, with stand-ins where the caller's values go; each call copies the compiled text and puts its values in.

/** A stand-in no caller sends: a NUL and a counter. */
const standIn = (i: number) => `\u0000precompiled:${i}\u0000`;

type Slot = { arg: number } | { value: unknown };

/**
 * A query built by `build` from string arguments, compiled once per `shape` (what changes the statement's text, e.g.
 * the caller's role) and run with the arguments of each call. An argument may only be a value of the statement (or
 * go unused in a shape), never decide its text: `build` only ever sees stand-ins. Each use is checked against its
 * builder run afresh (test/perf/precompiled.test.ts).
 */
export function precompiled<A extends string[], Q extends Compilable>(build: (ex: Executor, shape: string, ...args: A) => Q) {
  const compiled = new Map<string, { query: CompiledQuery; slots: Slot[] }>();

  function compile(ex: Executor, key: string, shape: string, arity: number) {
    const args = Array.from({ length: arity }, (_, i) => standIn(i)) as A;
    const query = build(ex, shape, ...args).compile();
    const slots = query.parameters.map((p): Slot => {
      const arg = args.indexOf(p as string);
      return arg >= 0 ? { arg } : { value: p };
    });
    const entry = { query, slots };
    compiled.set(key, entry);
    return entry;
  }

  return async function run(ex: Executor, shape: string, ...args: A): Promise<InferResult<Q>> {
    // One process may hold both databases (tests): their statements differ.
    const key = `${isPostgres(ex) ? 'pg' : 'sqlite'}:${shape}`;
    const { query, slots } = compiled.get(key) ?? compile(ex, key, shape, args.length);
    const parameters = slots.map((s) => ('arg' in s ? args[s.arg] : s.value));
    const result = await ex.executeQuery(CompiledQuery.raw(query.sql, parameters));
    return result.rows as InferResult<Q>;
  };
}
