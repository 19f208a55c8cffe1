import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseDatabaseUrl } from '../config.js';
import { type Db, type Executor, openDatabase } from './database.js';
import { preparedNameOf } from './prepared-names.js';

// Each test's texts carry a fresh comment: the names are the process's, and other tests of this worker add to them.
const fresh = () => `/* ${randomUUID()} */`;

describe('the setting', () => {
  const read = (value?: string) =>
    loadConfig({ DATABASE_URL: ':memory:', ...(value === undefined ? {} : { DATABASE_PREPARED_STATEMENTS: value }) })
      .databasePreparedStatements;

  it('DATABASE_PREPARED_STATEMENTS: on unless turned off, and a value that is neither is refused by name', () => {
    expect(read()).toBe(true);
    expect(read('')).toBe(true);
    for (const on of ['on', 'true', '1', 'YES']) expect(read(on)).toBe(true);
    for (const off of ['off', 'false', '0', 'No']) expect(read(off)).toBe(false);
    expect(() => read('sometimes')).toThrow(/DATABASE_PREPARED_STATEMENTS: expected true or false, got "sometimes"/);
  });
});

describe('which texts run as named statements', () => {
  it('a read is named on its third run, one name for one text, and a different one for another text', () => {
    const text = `select 1 ${fresh()} where 1 = $1`;
    expect([preparedNameOf(text), preparedNameOf(text)]).toEqual([undefined, undefined]);
    const name = preparedNameOf(text);
    expect(name).toMatch(/^labstock_[0-9a-f]{40}$/);
    expect(preparedNameOf(text)).toBe(name);
    const other = `select 2 ${fresh()} where 1 = $1`;
    for (let i = 0; i < 3; i++) preparedNameOf(other);
    expect(preparedNameOf(other)).not.toBe(name);
  });

  it("texts whose rows are a table's columns by `*` are never named; count(*) is", () => {
    const texts = [
      `select * ${fresh()} from jars where id = $1`,
      `select "jars".* ${fresh()} from jars`,
      `update jars ${fresh()} set a = $1 returning *`,
    ];
    const counted = `select count(*) ${fresh()} from jars where id = $1`;
    for (let i = 0; i < 4; i++) for (const t of [...texts, counted]) preparedNameOf(t);
    expect(texts.map(preparedNameOf)).toEqual([undefined, undefined, undefined]);
    expect(preparedNameOf(counted)).toBeDefined();
  });

  it('statements with nothing to plan, and texts with more than 100 values, are never named', () => {
    const begin = `begin ${fresh()}`;
    const long = `select ${fresh()} 1 where 1 in (${Array.from({ length: 101 }, (_, i) => `$${i + 1}`).join(', ')})`;
    const page = `select ${fresh()} 1 where 1 in (${Array.from({ length: 100 }, (_, i) => `$${i + 1}`).join(', ')})`;
    for (let i = 0; i < 5; i++) for (const t of [begin, long, page]) preparedNameOf(t);
    expect(preparedNameOf(begin)).toBeUndefined();
    expect(preparedNameOf(long)).toBeUndefined();
    expect(preparedNameOf(page)).toBeDefined();
  });
});

const target = parseDatabaseUrl(process.env.DATABASE_URL);

describe.runIf(target.kind === 'postgres')('named statements on PostgreSQL', () => {
  const url = target.kind === 'postgres' ? target.url : '';
  // A schema of its own with a table of two jars, and a handle on it (one connection, so what it prepared is seen).
  const withDb = async (options: { preparedStatements?: boolean }, test: (db: Db, schema: string) => Promise<void>) => {
    const schema = `t_prep_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`create schema ${schema}; create table ${schema}.jars (id int primary key, label text)`);
      await admin.query(`insert into ${schema}.jars values (1, 'acetone'), (2, 'ethanol')`);
      const handle = openDatabase(target, { pgSchema: schema, poolSize: 1, ...options });
      try {
        await test(handle.db, schema);
      } finally {
        await handle.close();
      }
    } finally {
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    }
  };
  const prepared = async (db: Db) =>
    (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db)).rows.map((r) => r.statement);

  it('a read run often is prepared once on the connection and answers as before', async () => {
    await withDb({}, async (db) => {
      const tag = fresh();
      const read = (id: number) => sql<{ label: string }>`select label ${sql.raw(tag)} from jars where id = ${id}`.execute(db);
      const labels = [];
      for (const id of [1, 2, 1, 2, 1]) labels.push((await read(id)).rows[0]?.label);
      expect(labels).toEqual(['acetone', 'ethanol', 'acetone', 'ethanol', 'acetone']);
      expect((await prepared(db)).filter((s) => s.includes(tag))).toHaveLength(1);
    });
  });

  it('connections run without JIT, which compiled short reads over large tables for 20-50 ms', async () => {
    await withDb({}, async (db, schema) => {
      expect((await sql<{ jit: string }>`show jit`.execute(db)).rows[0]?.jit).toBe('off');
      expect((await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s).toBe(schema);
    });
  });

  it('nothing is prepared when the setting is off', async () => {
    await withDb({ preparedStatements: false }, async (db) => {
      const tag = fresh();
      for (let i = 0; i < 5; i++) await sql`select label ${sql.raw(tag)} from jars where id = ${1}`.execute(db);
      expect((await prepared(db)).filter((s) => s.includes(tag))).toEqual([]);
    });
  });

  it('a column changed under a prepared statement: the next run outside a transaction answers with the new shape', async () => {
    await withDb({}, async (db) => {
      const tag = fresh();
      const read = (ex: Executor) => sql<Record<string, unknown>>`select id, label ${sql.raw(tag)} from jars where id = ${1}`.execute(ex);
      for (let i = 0; i < 4; i++) await read(db);
      expect((await prepared(db)).filter((s) => s.includes(tag))).toHaveLength(1);
      // A migration changing a column's type changes the shape of the statement's rows.
      await sql`alter table jars alter column label type varchar(40)`.execute(db);
      await sql`alter table jars alter column label type int using length(label)`.execute(db);
      expect((await read(db)).rows[0]).toEqual({ id: 1, label: 7 });
      // Inside a transaction the stale statement's failure would end the transaction, so it is not repeated
      // there; the connection plans afresh from the first failure on, so a transaction after it runs.
      await sql`alter table jars alter column label type text`.execute(db);
      const row = await db.transaction().execute(async (tx) => (await read(tx)).rows[0]);
      expect(row).toEqual({ id: 1, label: '7' });
    });
  });
});
