// SQLite lock waits on timers (src/shared/db/sqlite-driver.ts): while another connection holds the write lock, a
// write on this one waits without stopping the event loop, goes through once the lock is free, and gives up with
// SQLITE_BUSY (HTTP 503) when it is not freed in time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labstock-driver-'));
const file = path.join(dir, 'db.sqlite');
const a = openDatabase({ kind: 'sqlite', file });
const b = openDatabase({ kind: 'sqlite', file });
afterAll(async () => {
  await a.close();
  await b.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Holds b's write lock until `release` resolves. */
function holdLock(release: Promise<void>): Promise<void> {
  return b.db.transaction().execute(async (trx) => {
    await sql`insert into t (v) values ('held')`.execute(trx);
    await release;
  });
}

describe('SQLite lock waits (issue 22, item 5)', () => {
  it('a write waits for another connection on timers, the event loop turning meanwhile, then goes through', async () => {
    await sql`create table t (v text)`.execute(a.db);
    let free: () => void = () => undefined;
    const held = holdLock(new Promise<void>((r) => (free = r)));
    await new Promise((r) => setTimeout(r, 10));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    setTimeout(() => free(), 300);
    await a.db.transaction().execute((trx) => sql`insert into t (v) values ('waited')`.execute(trx));
    clearInterval(timer);
    await held;
    // The event loop ran while the write waited (a blocking busy_timeout let no timer run at all).
    expect(ticks).toBeGreaterThan(3);
    const rows = await sql<{ v: string }>`select v from t order by rowid`.execute(a.db);
    expect(rows.rows.map((r) => r.v)).toEqual(['held', 'waited']);
  });

  it('gives up with SQLITE_BUSY when the lock is not freed within the wait', async () => {
    let free: () => void = () => undefined;
    const held = holdLock(new Promise<void>((r) => (free = r)));
    await new Promise((r) => setTimeout(r, 10));
    const err = await sql`insert into t (v) values ('late')`.execute(a.db).then(
      () => null,
      (e: unknown) => e,
    );
    free();
    await held;
    expect((err as { code?: string } | null)?.code).toMatch(/^SQLITE_BUSY/);
    const rows = await sql<{ v: string }>`select v from t where v = 'late'`.execute(a.db);
    expect(rows.rows).toEqual([]);
  }, 20_000);
});
