import { Decimal } from 'decimal.js';
import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Issue 26's bench: the control-area meter and the limit check stay < 5 ms p99 at 1,000,000 instances. Reading an
// area's containers (10,000 of them) grouped by unit size and hazard statements was ~12 ms of server CPU a request;
// location_holdings keeps those groups' running totals per location, written in the transaction of every change
// to a container, an item's unit size or type, or a set of hazard statements (src/inventory/holdings-repository.ts,
// docs/safety.md). Only holdings whose statements are not empty have rows: nothing else counts against a limit.
// This fills it from what is stored now; `labstock admin rebuild` computes it again.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('location_holdings')
    .addColumn('location_id', 'text', (c) => c.notNull().references('locations.id').onDelete('cascade'))
    .addColumn('unit_size', 'text', (c) => c.notNull())
    .addColumn('hazard_codes', 'text', (c) => c.notNull())
    .addColumn('containers', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('location_holdings_pk', ['location_id', 'unit_size', 'hazard_codes'])
    .execute();
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const agg = pg ? sql.raw(`string_agg(c.code, ' ' order by c.code)`) : sql.raw(`group_concat(c.code, ' ' order by c.code)`);
  // PostgreSQL sums the decimals; SQLite would sum text as floating point, so its quantities are added here.
  const quantities = pg ? sql.raw('sum(cast(quantity as numeric))::text') : sql.raw(`group_concat(quantity, ' ')`);
  const { rows } = await sql<{ location_id: string; unit_size: string; codes: string | null; containers: number | string; quantity: string }>`
    with held as (
      select i.location_id, coalesce(it.unit_size, '') as unit_size, i.quantity,
        (select ${agg} from hazard_set_codes c where c.set_id = coalesce(
          (select s.id from hazard_sets s where s.item_id = it.id),
          (select s.id from hazard_sets s where s.type_id = it.type_id))) as codes
      from inventory_item_instances i join inventory_items it on it.id = i.item_id
      where i.archived_at is null and i.location_id is not null)
    select location_id, unit_size, codes, count(*) as containers, ${quantities} as quantity
    from held where codes is not null group by location_id, unit_size, codes`.execute(db);
  const sum = (list: string) => list.split(' ').reduce((t, q) => t.plus(q), new Decimal(0)).toFixed();
  const values = rows.map((r) => ({
    location_id: r.location_id,
    unit_size: r.unit_size,
    hazard_codes: r.codes!,
    containers: Number(r.containers),
    quantity: pg ? new Decimal(r.quantity).toFixed() : sum(r.quantity),
  }));
  for (let i = 0; i < values.length; i += 500) await db.insertInto('location_holdings').values(values.slice(i, i + 500)).execute();
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
