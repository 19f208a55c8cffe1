import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import type { CheckpointSettings, FromCheckpointThread, ToCheckpointThread } from './checkpointer.js';

// The checkpointing thread's side (checkpointer.ts starts it): a connection of its own that copies the WAL's
// committed pages into the database file every few hundred milliseconds, so that no request's commit does it.

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

let copied = 0; // frames already checkpointed in the WAL as the last tick saw it
function tick(): void {
  try {
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
