import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Executor } from './database.js';
import { precompiled, runWrites } from './precompiled.js';
import { onTableWrite, type TableWrite } from './table-writes.js';

interface T {
  t: { id: string; org: string; owner: string; n: number };
}

describe('precompiled queries', () => {
  const open: Kysely<T>[] = [];
  afterEach(async () => {
    for (const db of open.splice(0)) await db.destroy();
  });
  const make = async () => {
    const db = new Kysely<T>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    open.push(db);
    await db.schema
      .createTable('t')
      .addColumn('id', 'text')
      .addColumn('org', 'text')
      .addColumn('owner', 'text')
      .addColumn('n', 'integer')
      .execute();
    await db
      .insertInto('t')
      .values([
        { id: 'a', org: 'o1', owner: 'u1', n: 1 },
        { id: 'b', org: 'o1', owner: 'u2', n: 2 },
        { id: 'c', org: 'o2', owner: 'u1', n: 3 },
      ])
      .execute();
    return db as unknown as Executor;
  };

  // Shape 'all' ignores the owner; 'own' filters on it, with a constant of its own between the arguments.
  let builds = 0;
  const build = (ex: Executor, shape: string, org: string, owner: string) => {
    builds++;
    const db = ex as unknown as Kysely<T>;
    let q = db.selectFrom('t').select(['id', 'n']).where('org', '=', org).where('n', '<', 10);
    if (shape === 'own') q = q.where('owner', '=', owner);
    return q.orderBy('id');
  };

  it('answers as the builder run afresh would, for each shape and any values, building each shape once', async () => {
    const ex = await make();
    const query = precompiled(build);
    builds = 0;
    for (const [shape, org, owner] of [
      ['all', 'o1', 'u1'],
      ['own', 'o1', 'u1'],
      ['own', 'o1', 'u2'],
      ['all', 'o2', 'x'],
      ['own', 'o2', 'u1'],
      ['own', 'nobody', 'u1'],
    ] as const) {
      const fresh = await build(ex, shape, org, owner).execute();
      expect(await query(ex, shape, org, owner), `${shape} ${org} ${owner}`).toEqual(fresh);
    }
    // Six fresh builds above, plus one per shape for the precompiled query.
    expect(builds).toBe(8);
  });

  it('keeps values apart from the statement: a value that looks like SQL is only a value', async () => {
    const ex = await make();
    const query = precompiled(build);
    expect(await query(ex, 'own', "o1' or '1'='1", 'u1')).toEqual([]);
    expect(await query(ex, 'all', 'o1', 'u1')).toEqual([
      { id: 'a', n: 1 },
      { id: 'b', n: 2 },
    ]);
  });

  it('binds writes to run later in a batch, in order, and tells the table-write listeners what each wrote', async () => {
    const ex = await make();
    const db = ex as unknown as Kysely<T>;
    const insert = precompiled((e: Executor, _shape, id: string, n: number) =>
      (e as unknown as Kysely<T>).insertInto('t').values({ id, org: 'o3', owner: 'u3', n }),
    );
    const bump = precompiled((e: Executor, _shape, id: string) =>
      (e as unknown as Kysely<T>)
        .updateTable('t')
        .set((eb) => ({ n: eb('n', '+', 10) }))
        .where('id', '=', id),
    );
    const heard: TableWrite[] = [];
    const stop = onTableWrite((w) => heard.push(w));
    try {
      await runWrites(ex, [insert.bind(ex, 'row', 'd', 4), bump.bind(ex, 'row', 'a'), insert.bind(ex, 'row', 'e', 5)]);
    } finally {
      stop();
    }
    expect(await db.selectFrom('t').select(['id', 'n']).where('id', 'in', ['a', 'd', 'e']).orderBy('id').execute()).toEqual([
      { id: 'a', n: 11 },
      { id: 'd', n: 4 },
      { id: 'e', n: 5 },
    ]);
    expect(heard).toEqual([
      { table: 't', kind: 'insert' },
      { table: 't', kind: 'update' },
      { table: 't', kind: 'insert' },
    ]);
  });
});
