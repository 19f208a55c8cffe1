import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from '../config.js';
import { migrateToLatest, openDatabase } from './database.js';

// Several Labstock schemas can share one PostgreSQL database (test files in parallel, a staging copy). Migrating
// one while another is dropped must work: Kysely's own introspection read every schema and failed with
// "schema … does not exist" when one went away under it.

const target = parseDatabaseUrl(process.env.DATABASE_URL);
const isPg = target.kind === 'postgres';
const name = (tag: string, i: number) => `t_mig_${tag}_${process.pid}_${i}`;

describe.runIf(isPg)('migrateToLatest beside schemas being dropped (PostgreSQL)', () => {
  it('migrates each fresh schema while others, full of tables, are dropped at the same moment', async () => {
    const url = target.kind === 'postgres' ? target.url : '';
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      for (let round = 0; round < 6; round++) {
        const doomed = Array.from({ length: 4 }, (_, i) => name(`d${round}`, i));
        for (const s of doomed) {
          await admin.query(`create schema ${s}`);
          await admin.query(
            Array.from({ length: 40 }, (_, t) => `create table ${s}.t${t} (id int primary key, a text, b text, c text)`).join(';'),
          );
        }
        const fresh = name(`f${round}`, 0);
        await admin.query(`create schema ${fresh}`);
        const handle = openDatabase({ kind: 'postgres', url }, { pgSchema: fresh, poolSize: 2 });
        const dropper = new pg.Client({ connectionString: url });
        await dropper.connect();
        try {
          const [applied] = await Promise.all([
            migrateToLatest(handle.db),
            (async () => {
              for (const s of doomed) await dropper.query(`drop schema ${s} cascade`);
            })(),
          ]);
          expect(applied.length).toBeGreaterThan(0);
          // A second run finds its bookkeeping in this schema only, and has nothing left to do.
          expect(await migrateToLatest(handle.db)).toEqual([]);
        } finally {
          await handle.close();
          await dropper.end();
          await admin.query(`drop schema if exists ${fresh} cascade`);
          for (const s of doomed) await admin.query(`drop schema if exists ${s} cascade`);
        }
      }
    } finally {
      await admin.end();
    }
  }, 60_000);
});
