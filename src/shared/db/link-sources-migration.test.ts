import fs from 'node:fs';
import { type Kysely, type Migration, Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';

// Migration 0023 names who made each existing link (user_links.source): the links an installation already holds
// keep replacing each other as they will from now on (src/accounts/links.ts). Run on SQLite in memory, from the
// migration before it.

const TARGET = '0023_link_sources_and_attempts';
const names = fs
  .readdirSync(new URL('./migrations/', import.meta.url))
  .filter((f) => /^\d{4}_\w+\.ts$/.test(f))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();
const before = names[names.indexOf(TARGET) - 1]!;

let db: Kysely<any>;
let migrator: Migrator;
beforeAll(async () => {
  db = openDatabase({ kind: 'sqlite', file: ':memory:' }).db as Kysely<any>;
  const migrations: Record<string, Migration> = {};
  for (const n of names) migrations[n] = (await import(`./migrations/${n}.ts`)) as Migration;
  migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error } = await migrator.migrateTo(before);
  if (error) throw error;
});
afterAll(() => db?.destroy());

describe(`migration ${TARGET}`, () => {
  it("marks existing links as the person's, an admin's or the operator's, and adds the attempts in flight", async () => {
    const at = '2026-11-01T10:00:00.000Z';
    const plus = (hours: number) => new Date(Date.parse(at) + hours * 3_600_000).toISOString();
    await db.insertInto('organizations').values({ id: 'o1', name: 'Org', created_at: at }).execute();
    await db.insertInto('users').values({ id: 'u1', email: 'u1@example.org', first_name: 'U', last_name: '1', created_at: at }).execute();
    await db.insertInto('users').values({ id: 'a1', email: 'a1@example.org', first_name: 'A', last_name: '1', created_at: at }).execute();
    const link = (id: string, kind: string, organizationId: string | null, createdBy: string | null, hours: number) => ({
      id,
      kind,
      user_id: 'u1',
      organization_id: organizationId,
      token_hash: `hash-${id}`,
      created_by: createdBy,
      created_at: at,
      expires_at: plus(hours),
      used_at: null,
      revoked_at: null,
    });
    await db
      .insertInto('user_links')
      .values([
        link('asked', 'password_reset', null, null, 1),
        link('operator', 'password_reset', null, null, 24),
        link('admin', 'password_reset', 'o1', 'a1', 24),
        link('invited', 'invitation', 'o1', 'a1', 168),
        link('bootstrap', 'invitation', 'o1', null, 168),
      ])
      .execute();
    await db.insertInto('sign_in_throttle').values({ key: 'account:x', failures: 3, last_failure_at: at, locked_until: null }).execute();

    const { error } = await migrator.migrateTo(TARGET);
    expect(error).toBeUndefined();
    const rows = await db.selectFrom('user_links').select(['id', 'source']).orderBy('id').execute();
    expect(Object.fromEntries(rows.map((r) => [r.id, r.source]))).toEqual({
      admin: 'admin',
      asked: 'person',
      bootstrap: 'operator',
      invited: 'admin',
      operator: 'operator',
    });
    expect(await db.selectFrom('sign_in_throttle').selectAll().execute()).toEqual([
      { key: 'account:x', failures: 3, last_failure_at: at, locked_until: null, pending: 0, pending_at: null },
    ]);
  });
});
