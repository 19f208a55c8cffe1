import type { Worker as Thread } from 'node:worker_threads';
import { sql } from 'kysely';
import { startThread } from '../threads/start.js';
import type { Db } from './database.js';
import { sqliteConnectionOf } from './other-commits.js';

// SQLite copies the WAL into the database file (a checkpoint) inside whichever commit makes the WAL pass
// wal_autocheckpoint pages (1,000 by default): under steady writes one commit in about fifty took 25 ms instead of
// 0.1, most of the PUT's time in commits and a stall of the whole event loop (docs/performance.md, "Checkpoints
// off the event loop"). A long-running process (`labstock serve`, `labstock worker`) checkpoints in a thread of its
// own instead, every CHECKPOINT_EVERY_MS; its connection keeps the automatic checkpoint only as a backstop, far
// above what the thread lets the WAL reach, should the thread stop. Durability is unchanged: a commit is in the WAL
// (synchronous = NORMAL, src/shared/db/database.ts) whether or not it has been copied.
//
// SQLite starts the WAL again from its beginning only when a write begins with all of it copied, which a thread's
// checkpoint never achieves under steady writes (commits land while it copies): the WAL would grow until the
// backstop. So once the WAL passes FINISH_AT_FRAMES, the handle itself copies the few frames committed since the
// thread's checkpoint, between two of its transactions (a millisecond or two), and the next commit starts it again.

export const CHECKPOINT_EVERY_MS = 200;
/** The handle's own automatic checkpoint while the thread runs (pages; SQLite's default is 1,000). */
export const BACKSTOP_PAGES = 20_000;
export const FINISH_AT_FRAMES = 4_000;
const SQLITE_DEFAULT_PAGES = 1_000;

export interface CheckpointSettings {
  file: string;
  everyMs: number;
  /** WAL length (frames) from which the handle finishes the checkpoint itself. */
  finishAtFrames: number;
}
export type ToCheckpointThread = { op: 'close' };
export type FromCheckpointThread =
  | { op: 'ready' }
  | { op: 'checkpointed'; frames: number; log: number }
  | { op: 'error'; message: string }
  | { op: 'closed' };

export interface Checkpointer {
  /** Pages copied into the database file by the thread so far. */
  readonly frames: number;
  /** Checkpoints the handle finished itself (FINISH_AT_FRAMES). */
  readonly finishes: number;
  close(): Promise<void>;
}

type Log = { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };

/**
 * For a handle on a SQLite file: starts the thread and raises the handle's automatic checkpoint to the backstop;
 * null for PostgreSQL and in-memory databases. If the thread dies, the handle checkpoints by itself again.
 */
export async function startCheckpointer(db: Db, file: string, log: Log, everyMs = CHECKPOINT_EVERY_MS): Promise<Checkpointer | null> {
  const sqlite = sqliteConnectionOf(db);
  if (!sqlite || file === ':memory:' || file === '') return null;
  const settings: CheckpointSettings = { file, everyMs, finishAtFrames: FINISH_AT_FRAMES };
  const thread: Thread = startThread(import.meta.url, 'checkpoint-thread', { ...settings });
  let frames = 0;
  let finishes = 0;
  let closing = false;
  let finishing = false;
  // Through the handle, so it waits for the transaction in progress on the connection (if any) to end.
  const finish = () => {
    if (finishing || closing) return;
    finishing = true;
    sql`pragma wal_checkpoint(PASSIVE)`
      .execute(db)
      .then(() => {
        finishes += 1;
      })
      .catch((err: Error) => log.warn({ err: { message: err.message } }, 'a checkpoint failed; the next is tried shortly'))
      .finally(() => {
        finishing = false;
      });
  };
  const backToDefault = () => {
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
  };
  const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    thread.on('message', (msg: FromCheckpointThread) => {
      if (msg.op === 'ready') resolve();
      else if (msg.op === 'checkpointed') {
        frames += msg.frames;
        if (msg.log >= FINISH_AT_FRAMES) finish();
      } else if (msg.op === 'error') log.warn({ err: { message: msg.message } }, 'a checkpoint failed; the next is tried shortly');
    });
    thread.once('error', (err) => {
      log.error({ err: { message: err.message } }, 'the checkpoint thread failed; commits checkpoint by themselves again');
      reject(err);
    });
    thread.once('exit', (code) => {
      backToDefault();
      if (!closing) log.error({ code }, 'the checkpoint thread exited; commits checkpoint by themselves again');
      reject(new Error(`the checkpoint thread exited (code ${code}) before it was ready`));
    });
  });
  try {
    await ready;
  } catch {
    return null;
  }
  sqlite.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  return {
    get frames() {
      return frames;
    },
    get finishes() {
      return finishes;
    },
    async close() {
      if (closing) return exited;
      closing = true;
      backToDefault();
      thread.postMessage({ op: 'close' } satisfies ToCheckpointThread);
      const timer = setTimeout(() => void thread.terminate(), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
