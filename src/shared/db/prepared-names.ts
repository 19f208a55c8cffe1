import { createHash } from 'node:crypto';

// PostgreSQL parses and plans an unnamed statement at every call: for the short reads of a request that was most
// of their time (a control area's subtree and totals: ~0.4 ms unnamed, ~0.1 ms prepared; docs/performance.md,
// "Prepared statements on PostgreSQL"). A text seen a few times gets a name, and each connection prepares it on
// its first use and runs it by name after (pg keeps the connection's prepared names). Names are bounded, so each
// connection holds at most MAX_NAMED statements: the application has a few hundred shapes of query, and texts
// that vary by their number of values (long `in (…)` lists, multi-row inserts) are never named.
// docs/decisions/0033-postgres-prepared-statements.md.

/** How often a text is run before it is named: statements run once (start-up, migrations) never are. */
const ADMIT_AFTER = 3;
/** Named texts at most, in this process; a connection holds at most as many prepared statements. */
const MAX_NAMED = 400;
/** Texts with more values are run unnamed, as the SQLite statement cache does (./database.ts). */
const MAX_PARAMETERS = 100;
/** Texts counted before they are named; the count starts over beyond it, so one-off texts cannot grow it. */
const MAX_COUNTED = 5000;

const named = new Map<string, string>();
const seen = new Map<string, number>();

/** Only statements PostgreSQL plans; BEGIN, SET and the like have nothing to keep. */
const PLANNED = /^\s*(select|insert|update|delete|with)\b/i;
/**
 * A `*` of columns (`select *`, `t.*`, `returning *`), not `count(*)`: its rows change shape when a migration adds
 * or drops a column, and PostgreSQL then refuses the prepared statement ("cached plan must not change result
 * type"), which inside a transaction fails the transaction. Such texts are planned at every call, as before. (A
 * multiplication is caught too, and merely not named; a comment's delimiters are not.)
 */
const STAR = /(?<![(/])\*(?![)/])/;

function parameterCount(text: string): number {
  let max = 0;
  for (const m of text.matchAll(/\$(\d+)/g)) max = Math.max(max, Number(m[1]));
  return max;
}

/** The name `text` runs under, or undefined while it is run unnamed. */
export function preparedNameOf(text: string): string | undefined {
  const name = named.get(text);
  if (name !== undefined || named.size >= MAX_NAMED) return name;
  const count = (seen.get(text) ?? 0) + 1;
  if (count < ADMIT_AFTER) {
    if (seen.size >= MAX_COUNTED) seen.clear();
    seen.set(text, count);
    return undefined;
  }
  seen.delete(text);
  if (!PLANNED.test(text) || STAR.test(text) || parameterCount(text) > MAX_PARAMETERS) return undefined;
  // From the text alone, so every connection (and every process) gives one text one name, and a name one text.
  const id = `labstock_${createHash('sha256').update(text).digest('hex').slice(0, 40)}`;
  named.set(text, id);
  return id;
}

/** How many texts are named (tests). */
export const namedCount = (): number => named.size;
