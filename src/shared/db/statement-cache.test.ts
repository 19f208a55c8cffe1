import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { cachingStatements } from './database.js';

describe('SQLite statement cache', () => {
  const open: SQLite.Database[] = [];
  const make = (size?: number) => {
    const sqlite = new SQLite(':memory:');
    open.push(sqlite);
    sqlite.exec('create table t (n integer)');
    return cachingStatements(sqlite, size);
  };
  afterEach(() => {
    for (const db of open.splice(0)) if (db.open) db.close();
  });

  it('hands out the same prepared statement for the same SQL, and it still works with new parameters', () => {
    const db = make();
    const insert = db.prepare('insert into t (n) values (?)');
    expect(db.prepare('insert into t (n) values (?)')).toBe(insert);
    insert.run([1]);
    db.prepare('insert into t (n) values (?)').run([2]);
    expect(db.prepare('select n from t order by n').all([])).toEqual([{ n: 1 }, { n: 2 }]);
    expect(db.prepare('select n from t where n > ?').all([1])).toEqual([{ n: 2 }]);
  });

  it('keeps the most recently used statements and forgets the oldest past its size', () => {
    const db = make(2);
    const a = db.prepare('select 1');
    const b = db.prepare('select 2');
    expect(db.prepare('select 1')).toBe(a); // now "select 2" is the oldest
    db.prepare('select 3');
    expect(db.prepare('select 1')).toBe(a);
    expect(db.prepare('select 2')).not.toBe(b);
  });

  it('does not keep statements of more than 100 parameters (multi-row inserts), and still runs them', () => {
    const db = make();
    const rows = (k: number) => `insert into t (n) values ${Array.from({ length: k }, () => '(?)').join(', ')}`;
    expect(db.prepare(rows(100))).toBe(db.prepare(rows(100)));
    const wide = db.prepare(rows(101));
    expect(db.prepare(rows(101))).not.toBe(wide);
    wide.run(Array.from({ length: 101 }, (_, i) => i));
    expect(db.prepare('select count(*) as c from t').all([])).toEqual([{ c: 101 }]);
  });

  it('never hands out a statement that is still being iterated', () => {
    const db = make();
    db.prepare('insert into t (n) values (?)').run([1]);
    const first = db.prepare('select n from t');
    const rows = first.iterate([]);
    rows.next();
    const second = db.prepare('select n from t');
    expect(second).not.toBe(first);
    expect(second.all([])).toEqual([{ n: 1 }]);
    rows.return?.();
    expect(db.prepare('select n from t')).toBe(first);
  });

  it('sees schema changes made after a statement was cached', () => {
    const db = make();
    expect(db.prepare('select * from t').all([])).toEqual([]);
    db.prepare('alter table t add column label text').run([]);
    db.prepare('insert into t (n, label) values (?, ?)').run([7, 'x']);
    expect(db.prepare('select * from t').all([])).toEqual([{ n: 7, label: 'x' }]);
  });
});
