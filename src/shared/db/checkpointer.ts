import type { Worker as Thread } from 'node:worker_threads';
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
// SQLite starts the WAL again from its beginning only when a write begins with all of it copied, which PASSIVE
// checkpoints never achieve under steady writes (commits land while they copy): the WAL would grow until the
// backstop, whose checkpoint runs inside a commit again. So once the WAL passes RESTART_AT_FRAMES, the thread
// checkpoints again at once until at most RESTART_WITHIN frames are left, and copies those with RESTART, which holds
// the write lock meanwhile: writers wait for it on timers (src/shared/db/sqlite-driver.ts), a few milliseconds about
// once a second under steady writes, while the event loop serves everything else. Doing that last copy on the
// handle itself was tried: its sync of the database file blocked the event loop 17-32 ms each time.

export const CHECKPOINT_EVERY_MS = 200;
/** The handle's own automatic checkpoint while the thread runs (pages; SQLite's default is 1,000). */
export const BACKSTOP_PAGES = 40_000;
export const RESTART_AT_FRAMES = 16_000;
export const RESTART_WITHIN = 64;
/** How long RESTART waits for the writer (or a reader) of the moment before it gives up until the next tick. */
export const RESTART_WAIT_MS = 20;
const SQLITE_DEFAULT_PAGES = 1_000;

export interface CheckpointSettings {
  file: string;
  everyMs: number;
  /** WAL length (frames) from which the thread restarts the WAL... */
  restartAtFrames: number;
  /** ...once at most this many frames are left to copy. */
  restartWithin: number;
  restartWaitMs: number;
}
export type ToCheckpointThread = { op: 'close' };
export type FromCheckpointThread =
  | { op: 'ready' }
  | { op: 'checkpointed'; frames: number; restarted: boolean }
  | { op: 'error'; message: string }
  | { op: 'closed' };

export interface Checkpointer {
  /** Pages copied into the database file by the thread so far. */
  readonly frames: number;
  /** RESTART checkpoints that completed (RESTART_AT_FRAMES). */
  readonly restarts: number;
  close(): Promise<void>;
}

type Log = { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };

/**
 * For a handle on a SQLite file: starts the thread and raises the handle's automatic checkpoint to the backstop;
 * null for PostgreSQL and in-memory databases. If the thread dies, the handle checkpoints by itself again.
 */
export async function startCheckpointer(
  db: Db,
  file: string,
  log: Log,
  tuning: Partial<Omit<CheckpointSettings, 'file'>> = {},
): Promise<Checkpointer | null> {
  const sqlite = sqliteConnectionOf(db);
  if (!sqlite || file === ':memory:' || file === '') return null;
  const settings: CheckpointSettings = {
    file,
    everyMs: CHECKPOINT_EVERY_MS,
    restartAtFrames: RESTART_AT_FRAMES,
    restartWithin: RESTART_WITHIN,
    restartWaitMs: RESTART_WAIT_MS,
    ...tuning,
  };
  const thread: Thread = startThread(import.meta.url, 'checkpoint-thread', { ...settings });
  let frames = 0;
  let restarts = 0;
  let closing = false;
  const backToDefault = () => {
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`);
  };
  const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    thread.on('message', (msg: FromCheckpointThread) => {
      if (msg.op === 'ready') resolve();
      else if (msg.op === 'checkpointed') {
        frames += msg.frames;
        if (msg.restarted) restarts += 1;
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
    get restarts() {
      return restarts;
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
