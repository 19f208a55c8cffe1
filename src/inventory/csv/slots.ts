import type { Db } from '../../shared/db/database.js';
import { AppError } from '../../shared/errors.js';

// How many CSV imports (dry runs included) run at once (docs/csv.md): one per lab, and IMPORT_CONCURRENCY in a
// process. An import holds its whole file and its checked rows in memory (up to 32 MiB and 100,000 rows), so
// these bound what imports may take together; a request beyond them is refused at once, with Retry-After, instead
// of waiting with its body held. Counted per database handle: a server and its worker share one
// (src/cli/serve.ts), and each test harness has its own.

/** Seconds a refused import is told to wait: about what a large import takes. */
const RETRY_AFTER_S = 10;

interface Slots {
  labs: Set<string>;
}
const byHandle = new WeakMap<Db, Slots>();

/** Takes the lab's slot and one of the process's; the returned function gives them back (call it once). */
export function takeImportSlot(db: Db, limit: number, labId: string): () => void {
  let slots = byHandle.get(db);
  if (!slots) {
    slots = { labs: new Set() };
    byHandle.set(db, slots);
  }
  const headers = { 'Retry-After': String(RETRY_AFTER_S) };
  if (slots.labs.has(labId))
    throw new AppError('import_in_progress', 'An import into this lab is running; retry when it has finished', { headers });
  if (slots.labs.size >= limit)
    throw new AppError('service_unavailable', `${limit} imports are running on this server; retry in a moment`, { headers });
  const mine = slots;
  mine.labs.add(labId);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    mine.labs.delete(labId);
  };
}
