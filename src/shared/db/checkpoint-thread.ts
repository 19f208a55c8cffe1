import fs from 'node:fs';
import os from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import type { CheckpointSettings, FromCheckpointThread, ToCheckpointThread } from './checkpointer.js';

// The checkpointing thread's side (checkpointer.ts starts it): a connection of its own that copies the WAL's
// committed pages into the database file once enough of them wait, so that no request's commit does it.

type Result = { busy: number; log: number; checkpointed: number };
const port = parentPort!;
const settings = workerData as CheckpointSettings;
const db = new SQLite(settings.file);
// Only RESTART waits inside SQLite, on this thread, for the writer of the moment; PASSIVE never waits.
db.pragma(`busy_timeout = ${settings.restartWaitMs}`);
// PASSIVE copies what no reader still needs without waiting for anyone or blocking the writer.
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
// RESTART holds the write lock while it copies what is left and syncs, so that the next commit starts the WAL again.
const restart = db.prepare('PRAGMA wal_checkpoint(RESTART)');
const post = (msg: FromCheckpointThread) => port.postMessage(msg);

// Where the WAL stands, read from the wal-index (the -shm file; layout in https://www.sqlite.org/walformat.html,
// in the machine's byte order): the frames in the WAL (mxFrame, byte 16 of the header) and those copied into the
// database file (nBackfill, byte 96). A checkpoint syncs the disk twice, so the thread checkpoints only when
// CHECKPOINT_AT frames wait, as SQLite's own automatic checkpoint would, or when frames have waited a while with no
// new ones: no more syncs than SQLite's own checkpoints made (decision 0034).
const CHECKPOINT_AT = 1_000;
const IDLE_TICKS = 25;
const index = Buffer.alloc(100);
let shm: number | null = null;
function walState(): { log: number; backfilled: number } | null {
  try {
    shm ??= fs.openSync(`${settings.file}-shm`, 'r');
    if (fs.readSync(shm, index, 0, 100, 0) < 100) return null;
  } catch {
    return null;
  }
  const le = os.endianness() === 'LE';
  return { log: le ? index.readUInt32LE(16) : index.readUInt32BE(16), backfilled: le ? index.readUInt32LE(96) : index.readUInt32BE(96) };
}

let copied = 0; // frames already checkpointed in the WAL as the last tick saw it
let lastLog = -1;
let quietTicks = 0;
/** Whether a checkpoint is due: unknown state, enough frames waiting, or frames waiting with none new for a while. */
function due(): boolean {
  const state = walState();
  if (!state) return true;
  quietTicks = state.log === lastLog ? quietTicks + 1 : 0;
  lastLog = state.log;
  const waiting = state.log - state.backfilled;
  return waiting >= CHECKPOINT_AT || (waiting > 0 && quietTicks >= IDLE_TICKS);
}

function tick(force = false): void {
  try {
    if (!force && !due()) return;
    let r = checkpoint.get() as Result;
    let restarted = false;
    if (r.log >= settings.restartAtFrames) {
      // Commits keep coming while PASSIVE copies: again at once, until little is left for RESTART to copy while
      // writers wait for it.
      for (let again = 0; again < 4 && r.log - r.checkpointed > settings.restartWithin; again += 1) r = checkpoint.get() as Result;
      if (r.log - r.checkpointed <= settings.restartWithin || r.log >= 4 * settings.restartAtFrames) {
        r = restart.get() as Result;
        restarted = r.busy === 0;
      }
    }
    // After the writer starts the WAL again from its beginning the counts start again from zero.
    const frames = r.checkpointed >= copied ? r.checkpointed - copied : r.checkpointed;
    copied = r.checkpointed;
    if (frames > 0 || restarted) post({ op: 'checkpointed', frames, restarted });
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    if (!code.startsWith('SQLITE_BUSY') && !code.startsWith('SQLITE_LOCKED')) post({ op: 'error', message: (err as Error).message });
  }
}

const timer = setInterval(() => tick(), settings.everyMs);
port.on('message', (msg: ToCheckpointThread) => {
  if (msg.op !== 'close') return;
  clearInterval(timer);
  tick(true);
  if (shm !== null) fs.closeSync(shm);
  db.close();
  post({ op: 'closed' });
  port.close();
});
post({ op: 'ready' });
