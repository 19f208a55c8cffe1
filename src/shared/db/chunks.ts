/**
 * Rows per multi-row statement or ids per `in (…)` list: well under SQLite's bound-parameter limit (32,766) for
 * the widest row the application writes, and small enough that one statement stays cheap on PostgreSQL.
 */
export const CHUNK_SIZE = 500;

/** Runs `fn` on consecutive slices of `items`, one after the other (statements of one transaction run in order). */
export async function forEachChunk<T>(items: readonly T[], fn: (chunk: T[]) => Promise<unknown>, size = CHUNK_SIZE): Promise<void> {
  for (let i = 0; i < items.length; i += size) await fn(items.slice(i, i + size));
}

/** Like forEachChunk, collecting what each slice returns. */
export async function flatMapChunks<T, R>(items: readonly T[], fn: (chunk: T[]) => Promise<R[]>, size = CHUNK_SIZE): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await fn(items.slice(i, i + size))));
  return out;
}
