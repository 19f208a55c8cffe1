import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import type { CheckpointSettings, FromCheckpointThread, ToCheckpointThread } from './checkpointer.js';

// The checkpointing thread's side (checkpointer.ts starts it): a connection of its own that copies the WAL's
// committed pages into the database file every few hundred milliseconds, so that no request's commit does it.

type Result = { busy: number; log: number; checkpointed: number };
const port = parentPort!;
const settings = workerData as CheckpointSettings;
const db = new SQLite(settings.file);
// A checkpoint that meets a lock is tried again at the next tick: nothing here waits inside SQLite.
db.pragma('busy_timeout = 0');
// PASSIVE copies what no reader still needs without waiting for anyone or blocking the writer.
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const post = (msg: FromCheckpointThread) => port.postMessage(msg);

let copied = 0; // frames already checkpointed in the WAL as the last tick saw it
function tick(): void {
  try {
    const r = checkpoint.get() as Result;
    // After the writer restarts the WAL from its beginning the counts start again from zero.
    const frames = r.checkpointed >= copied ? r.checkpointed - copied : r.checkpointed;
    copied = r.checkpointed;
    if (frames > 0 || r.log >= settings.finishAtFrames) post({ op: 'checkpointed', frames, log: r.log });
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    if (!code.startsWith('SQLITE_BUSY') && !code.startsWith('SQLITE_LOCKED')) post({ op: 'error', message: (err as Error).message });
  }
}

const timer = setInterval(tick, settings.everyMs);
port.on('message', (msg: ToCheckpointThread) => {
  if (msg.op !== 'close') return;
  clearInterval(timer);
  tick();
  db.close();
  post({ op: 'closed' });
  port.close();
});
post({ op: 'ready' });
