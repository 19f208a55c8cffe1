import { Decimal } from 'decimal.js';
import { type Kysely, PostgresAdapter, sql } from 'kysely';

// Issue 26's bench: the control-area meter and the limit check stay < 5 ms p99 at 1,000,000 instances. Reading an
// area's containers (10,000 of them) grouped by unit size and hazard statements was ~12 ms of server CPU a request;
// location_holdings keeps those groups' running totals per location, written in the transaction of every change
// to a container, an item's unit size or type, or a set of hazard statements (src/inventory/holdings-repository.ts,
// docs/safety.md). The storage attributes in force (acid, base, aqueous: the item's own, else its type's) are part of
// the key too, so that the segregation check knows which kinds of containers a shelf holds without reading them.
// Holdings with neither statements nor attributes have no rows: nothing else counts against a limit or conflicts.
// This fills it from what is stored now; `labstock admin rebuild` computes it again.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('location_holdings')
    .addColumn('location_id', 'text', (c) => c.notNull().references('locations.id').onDelete('cascade'))
    .addColumn('unit_size', 'text', (c) => c.notNull())
    .addColumn('hazard_codes', 'text', (c) => c.notNull())
    .addColumn('storage', 'text', (c) => c.notNull())
    .addColumn('containers', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('location_holdings_pk', ['location_id', 'unit_size', 'hazard_codes', 'storage'])
    .execute();
  // Which items' containers make up each holding, and how many: the meter names the containers of a holding whose
  // amount nobody can know, and a conflict the containers of one kind, without reading the others.
  await db.schema
    .createTable('location_holding_items')
    .addColumn('location_id', 'text', (c) => c.notNull().references('locations.id').onDelete('cascade'))
    .addColumn('unit_size', 'text', (c) => c.notNull())
    .addColumn('hazard_codes', 'text', (c) => c.notNull())
    .addColumn('storage', 'text', (c) => c.notNull())
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('containers', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('location_holding_items_pk', ['location_id', 'unit_size', 'hazard_codes', 'storage', 'item_id'])
    .execute();
  await db.schema.createIndex('location_holding_items_item_idx').on('location_holding_items').column('item_id').execute();
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const agg = pg ? sql.raw(`string_agg(c.code, ' ' order by c.code)`) : sql.raw(`group_concat(c.code, ' ' order by c.code)`);
  // PostgreSQL sums the decimals; SQLite would sum text as floating point, so its quantities are added here.
  const quantities = pg ? sql.raw('sum(cast(quantity as numeric))::text') : sql.raw(`group_concat(quantity, ' ')`);
  const storage = sql.raw(`trim(coalesce(a.corrosive, '') || case when a.aqueous = 1 then ' aqueous' else '' end)`);
  const { rows } = await sql<{
    location_id: string;
    item_id: string;
    unit_size: string;
    codes: string | null;
    storage: string;
    containers: number | string;
    quantity: string;
  }>`
    with held as (
      select i.location_id, i.item_id, coalesce(it.unit_size, '') as unit_size, i.quantity,
        (select ${agg} from hazard_set_codes c where c.set_id = coalesce(
          (select s.id from hazard_sets s where s.item_id = it.id),
          (select s.id from hazard_sets s where s.type_id = it.type_id))) as codes,
        coalesce(
          (select ${storage} from storage_attributes a where a.subject_kind = 'item' and a.subject_id = it.id),
          (select ${storage} from storage_attributes a where a.subject_kind = 'type' and a.subject_id = it.type_id),
          '') as storage
      from inventory_item_instances i join inventory_items it on it.id = i.item_id
      where i.archived_at is null and i.location_id is not null)
    select location_id, item_id, unit_size, codes, storage, count(*) as containers, ${quantities} as quantity
    from held where codes is not null or storage <> '' group by location_id, item_id, unit_size, codes, storage`.execute(db);
  const sum = (list: string) => list.split(' ').reduce((t, q) => t.plus(q), new Decimal(0));
  const totals = new Map<string, { location_id: string; unit_size: string; hazard_codes: string; storage: string; containers: number; quantity: Decimal }>();
  const items: { location_id: string; unit_size: string; hazard_codes: string; storage: string; item_id: string; containers: number }[] = [];
  for (const r of rows) {
    const key = { location_id: r.location_id, unit_size: r.unit_size, hazard_codes: r.codes ?? '', storage: r.storage };
    const k = JSON.stringify(key);
    const t = totals.get(k) ?? { ...key, containers: 0, quantity: new Decimal(0) };
    t.containers += Number(r.containers);
    t.quantity = t.quantity.plus(pg ? new Decimal(r.quantity) : sum(r.quantity));
    totals.set(k, t);
    items.push({ ...key, item_id: r.item_id, containers: Number(r.containers) });
  }
  const values = [...totals.values()].map((t) => ({ ...t, quantity: t.quantity.toFixed() }));
  for (let i = 0; i < values.length; i += 500) await db.insertInto('location_holdings').values(values.slice(i, i + 500)).execute();
  for (let i = 0; i < items.length; i += 500) await db.insertInto('location_holding_items').values(items.slice(i, i + 500)).execute();
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
