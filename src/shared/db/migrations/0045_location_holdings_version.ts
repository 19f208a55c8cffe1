import type { Kysely } from 'kysely';

// Issue 26's bench: the meter and the limit check remember what an area holds (src/inventory/area-holdings.ts)
// and need to know, cheaply, whether it changed since. Every write of a holding row now adds one to its version
// (src/hazards/holdings-repository.ts), a new row starts at 1, and rows are never deleted while their location
// stands (`labstock admin rebuild` zeroes them instead): the number of an area's rows and the sum of their
// versions therefore grow with every change and never come back to an earlier pair.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('location_holdings')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
