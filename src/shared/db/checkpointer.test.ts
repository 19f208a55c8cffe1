// Checkpoints in a thread (src/shared/db/checkpointer.ts): while it runs, the handle's commits leave the WAL to it
// (their own automatic checkpoint is only a backstop), the thread copies what they wrote, the handle does not take
// its checkpoints for another connection's commits (the authentication cache would drop everything), and closing
// it gives the handle SQLite's own setting back with every row still there.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { BACKSTOP_PAGES, startCheckpointer } from './checkpointer.js';
import { openDatabase } from './database.js';
import { otherCommitsWatch, sqliteConnectionOf } from './other-commits.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labstock-checkpoint-'));
const file = path.join(dir, 'db.sqlite');
const handle = openDatabase({ kind: 'sqlite', file });
const log = { warn: () => undefined, error: () => undefined };
afterAll(async () => {
  await handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
const autocheckpoint = () => sqliteConnectionOf(handle.db)!.pragma('wal_autocheckpoint', { simple: true });

describe('checkpoints in a thread of their own', () => {
  it('copies what the commits wrote while they leave it to the thread; closed, the handle checkpoints by itself again', async () => {
    await sql`create table t (id integer primary key, v text not null)`.execute(handle.db);
    expect(autocheckpoint()).toBe(1000);
    const checkpoints = await startCheckpointer(handle.db, file, log, { everyMs: 20, restartAtFrames: 3_000 });
    expect(checkpoints).not.toBeNull();
    expect(autocheckpoint()).toBe(BACKSTOP_PAGES);
    const watch = otherCommitsWatch(handle.db)!;
    expect(watch()).toBe(false);

    // About 4,500 pages of 4 kB in 900 commits: past SQLite's own threshold and the 3,000 frames
    // at which the thread restarts the WAL here, below the backstop.
    const row = 'x'.repeat(4000);
    const write = () =>
      handle.db.transaction().execute(async (trx) => {
        for (let j = 0; j < 5; j += 1) await sql`insert into t (v) values (${row})`.execute(trx);
      });
    for (let i = 0; i < 900; i += 1) await write();
    const start = Date.now();
    while ((checkpoints!.frames < 4500 || checkpoints!.restarts < 1) && Date.now() - start < 5000)
      await new Promise((r) => setTimeout(r, 20));
    expect(checkpoints!.frames, 'pages the thread copied').toBeGreaterThanOrEqual(4500);
    expect(checkpoints!.restarts, 'checkpoints that restarted the WAL').toBeGreaterThanOrEqual(1);
    expect(watch(), "the thread's checkpoints are not another connection's commits").toBe(false);
    // Restarted, a commit starts the WAL again from its beginning: it holds fewer frames than were ever written to it
    // (without a restart it would hold all 4,500 and more).
    await write();
    const wal = sqliteConnectionOf(handle.db)!.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
    expect(wal[0]!.log, 'frames in the WAL').toBeLessThan(4500);

    await checkpoints!.close();
    expect(autocheckpoint()).toBe(1000);
    const other = openDatabase({ kind: 'sqlite', file });
    const { rows } = await sql<{ n: number }>`select count(*) as n from t`.execute(other.db);
    await other.close();
    expect(rows[0]!.n).toBe(4505);
  });

  it('an in-memory database has none', async () => {
    const memory = openDatabase({ kind: 'sqlite', file: ':memory:' });
    expect(await startCheckpointer(memory.db, ':memory:', log)).toBeNull();
    await memory.close();
  });
});
