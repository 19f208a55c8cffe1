import { setTimeout as sleep } from 'node:timers/promises';
import type { SystemActor } from '../../shared/actor.js';
import type { Db } from '../../shared/db/database.js';
import { renderItems } from '../render.js';
import * as items from '../repository.js';
import { documentOf } from './documents.js';
import * as repo from './repository.js';
import { DOCUMENT_SHAPE } from './shape.js';

// Writing the documents that are missing (docs/decisions/0015-stored-item-documents.md): after the upgrade that
// brought them (migration 0017), after a bulk load, after APP_URL changed (every document shows it in app_url), or
// after an upgrade that changed what a document holds (a document of another shape counts as missing, ./shape.ts).
// `labstock admin rebuild` runs it to the end; `labstock serve` runs it in the background, a batch at a time, while
// reads of items without a document of this shape render them as before. Each batch commits its documents with
// their shape, so a pass stopped midway (a crash, a restart) leaves only the rest to do.

const BATCH = 500;

type Cursor = { createdAt: string; id: string } | null;

/** A new APP_URL (or none recorded): every document is dropped, to be written again with the new one. */
export async function forgetDocumentsOfOtherAppUrl(db: Db, _by: SystemActor, appUrl: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if ((await repo.documentsAppUrl(trx)) === appUrl) return false;
    await repo.forgetAllDocuments(trx);
    await repo.setDocumentsAppUrl(trx, appUrl);
    return true;
  });
}

/**
 * Writes the missing documents (none, or of another shape) among the next `batch` items after the cursor (the page
 * index's order); returns how many it wrote and the next cursor (null at the end). A change committed meanwhile
 * wrote its own document, which this never overwrites (only items still without one of this shape are written).
 */
export async function writeMissingDocuments(db: Db, _by: SystemActor, appUrl: string, cursor: Cursor, batch = BATCH) {
  return db.transaction().execute(async (trx) => {
    const page = await repo.itemsAfter(trx, cursor, batch);
    const last = page.at(-1);
    const ids = page.filter((r) => !!r.missing).map((r) => r.id);
    if (ids.length > 0) {
      const rendered = await renderItems(trx, appUrl, await items.findItems(trx, ids));
      await repo.setDocuments(
        trx,
        rendered.map((item) => ({ id: item.id, rendered: documentOf(item) })),
        true,
      );
    }
    return { written: ids.length, next: page.length < batch || !last ? null : { createdAt: last.created_at, id: last.id } };
  });
}

/** `labstock admin rebuild`: with `all`, every document is written again; otherwise the missing ones. */
export async function rebuildDocuments(
  db: Db,
  by: SystemActor,
  appUrl: string,
  opts: { all?: boolean; onProgress?: (done: number, total: number) => void } = {},
): Promise<{ written: number; total: number }> {
  if (opts.all) {
    await db.transaction().execute(async (trx) => {
      await repo.forgetAllDocuments(trx);
      await repo.setDocumentsAppUrl(trx, appUrl);
    });
  } else await forgetDocumentsOfOtherAppUrl(db, by, appUrl);
  const total = await repo.countMissingDocuments(db);
  let written = 0;
  let cursor: Cursor = null;
  do {
    const step = await writeMissingDocuments(db, by, appUrl, cursor);
    written += step.written;
    cursor = step.next;
    opts.onProgress?.(Math.min(written, total), total);
  } while (cursor);
  await repo.setDocumentsShape(db);
  return { written, total };
}

/** The background rebuild's progress: a gauge (src/shared/metrics.ts) with `progress` = done or total. */
export interface RebuildProgress {
  set(labels: { progress: 'done' | 'total' }, value: number): void;
}

/**
 * `labstock serve`: drops documents of another APP_URL, then writes the missing ones and those of another shape in
 * the background, pausing between batches so that requests go first; progress in the log (info, every tenth) and in
 * `progress`. Stops when `stop()` is called (at shutdown) or nothing is missing; a pass that ends records the shape.
 */
export function startDocumentRebuild(
  db: Db,
  by: SystemActor,
  appUrl: string,
  log: { info(o: object, m: string): void; error(o: object, m: string): void },
  progress?: RebuildProgress,
  opts: { batch?: number; pauseMs?: number } = {},
) {
  let running = true;
  const done = (async () => {
    try {
      if (await forgetDocumentsOfOtherAppUrl(db, by, appUrl))
        log.info({ appUrl }, 'stored item documents will be written for this APP_URL');
      const recorded = await repo.documentsShape(db);
      const total = await repo.countMissingDocuments(db);
      progress?.set({ progress: 'total' }, total);
      progress?.set({ progress: 'done' }, 0);
      if (total > 0)
        log.info(
          { total, shape: DOCUMENT_SHAPE, previousShape: recorded },
          recorded === DOCUMENT_SHAPE
            ? 'writing the missing stored item documents in the background'
            : 'stored item documents have another shape: rewriting them in the background (reads render them meanwhile)',
        );
      let written = 0;
      let tenth = 0;
      let cursor: Cursor = null;
      if (total > 0)
        do {
          const step = await writeMissingDocuments(db, by, appUrl, cursor, opts.batch);
          written += step.written;
          cursor = step.next;
          const doneNow = Math.min(written, total);
          progress?.set({ progress: 'done' }, doneNow);
          if (Math.floor((doneNow * 10) / total) > tenth && cursor) {
            tenth = Math.floor((doneNow * 10) / total);
            log.info({ done: doneNow, total }, 'writing stored item documents');
          }
          if (cursor) await sleep(opts.pauseMs ?? 20);
        } while (running && cursor);
      // A pass that reached the end leaves every document of this shape (changes meanwhile wrote their own).
      if (!cursor && recorded !== DOCUMENT_SHAPE) await repo.setDocumentsShape(db);
      if (written > 0 || total > 0) log.info({ written, total, complete: !cursor }, 'stored item documents written');
    } catch (err) {
      // Reads render items without a document, so nothing is wrong meanwhile; the next start tries again.
      log.error({ err: { message: (err as Error).message } }, 'writing stored item documents failed');
    }
  })();
  return {
    /** Settles when the pass ends (or stops); it never rejects (a failure is logged). */
    finished: done,
    async stop() {
      running = false;
      await done;
    },
  };
}
