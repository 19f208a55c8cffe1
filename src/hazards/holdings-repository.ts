import { type RawBuilder, sql } from 'kysely';
import { type Executor, isPostgres } from '../shared/db/database.js';
import { type Dec, dec } from '../shared/decimal.js';

// location_holdings (migration 0043): per location, the active containers summed per unit size and hazard
// statements in force (the item's own set, else its type's: src/hazards/repository.ts effectiveHazards). The
// control-area meter and the limit check read these rows (src/inventory/area-holdings.ts) instead of the
// containers. They stay true because every write that can change a holding goes through `trackHoldings`: it reads
// what the written containers contributed before and after the change and applies the difference, in the
// caller's transaction, in one statement whose rows come in key order (two writers take the rows' locks in the
// same order). The table is this folder's: types and inventory both change what it sums. test/inventory/holdings.test.ts and the property tests compare them with `holdingsFromScratch`.

/** Which containers a write may change: these instances, the instances of these items, or of a type's items. */
export type HoldingsScope = { instanceIds: readonly string[] } | { itemIds: readonly string[] } | { typeId: string };

export interface Holding {
  location_id: string;
  unit_size: string;
  hazard_codes: string;
  containers: number;
  quantity: string;
}

const CHUNK = 500;

/** The statements in force for the item row `it`, sorted and space-separated ('' for none). */
const codesOf = (pg: boolean) => {
  const agg = pg ? sql.raw(`string_agg(c.code, ' ' order by c.code)`) : sql.raw(`group_concat(c.code, ' ' order by c.code)`);
  return sql<string>`coalesce((select ${agg} from hazard_set_codes c where c.set_id = coalesce(
    (select s.id from hazard_sets s where s.item_id = it.id),
    (select s.id from hazard_sets s where s.type_id = it.type_id))), '')`;
};

function condition(scope: HoldingsScope, from: number): { where: RawBuilder<unknown>; more: boolean } | null {
  if ('typeId' in scope) return from === 0 ? { where: sql`it.type_id = ${scope.typeId}`, more: false } : null;
  const ids = 'instanceIds' in scope ? scope.instanceIds : scope.itemIds;
  if (from >= ids.length) return null;
  const col = 'instanceIds' in scope ? sql`i.id` : sql`i.item_id`;
  return { where: sql`${col} in (${sql.join(ids.slice(from, from + CHUNK))})`, more: from + CHUNK < ids.length };
}

/** What the scope's active, placed containers contribute to the holdings now (hazardous ones only). */
export async function holdingsOf(ex: Executor, scope: HoldingsScope): Promise<Holding[]> {
  const pg = isPostgres(ex);
  const quantity = pg ? sql.raw('sum(cast(i.quantity as numeric))::text') : sql.raw(`group_concat(i.quantity, ' ')`);
  const out: Holding[] = [];
  for (let from = 0; ; from += CHUNK) {
    const c = condition(scope, from);
    if (!c) break;
    const { rows } = await sql<Holding & { containers: number | string }>`
      select location_id, unit_size, hazard_codes, count(*) as containers, ${quantity} as quantity from (
        select i.location_id, coalesce(it.unit_size, '') as unit_size, i.quantity, ${codesOf(pg)} as hazard_codes
        from inventory_item_instances i join inventory_items it on it.id = i.item_id
        where ${c.where} and i.archived_at is null and i.location_id is not null) i
      where hazard_codes <> ''
      group by location_id, unit_size, hazard_codes`.execute(ex);
    for (const r of rows)
      out.push({ ...r, containers: Number(r.containers), quantity: pg ? dec(r.quantity).toFixed() : sumQuantities(r.quantity) });
    if (!c.more) break;
  }
  return out;
}

const keyOf = (h: Pick<Holding, 'location_id' | 'unit_size' | 'hazard_codes'>) =>
  `${h.location_id}\u0000${h.unit_size}\u0000${h.hazard_codes}`;

/** Adds `after` and takes away `before`: one upsert of the differences, in key order. */
export async function applyHoldings(ex: Executor, before: readonly Holding[], after: readonly Holding[]): Promise<void> {
  const diff = new Map<string, { h: Holding; containers: number; quantity: Dec }>();
  const add = (h: Holding, sign: 1 | -1) => {
    const k = keyOf(h);
    const d = diff.get(k) ?? { h, containers: 0, quantity: dec(0) };
    d.containers += sign * h.containers;
    d.quantity = sign === 1 ? d.quantity.plus(h.quantity) : d.quantity.minus(h.quantity);
    diff.set(k, d);
  };
  for (const h of before) add(h, -1);
  for (const h of after) add(h, 1);
  const rows = [...diff.entries()]
    .filter(([, d]) => d.containers !== 0 || !d.quantity.isZero())
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, d]) => ({
      location_id: d.h.location_id,
      unit_size: d.h.unit_size,
      hazard_codes: d.h.hazard_codes,
      containers: d.containers,
      quantity: d.quantity.toFixed(),
    }));
  await upsert(ex, rows);
}

async function upsert(ex: Executor, rows: Holding[]): Promise<void> {
  const sum = isPostgres(ex)
    ? sql<string>`(cast(location_holdings.quantity as numeric) + cast(excluded.quantity as numeric))::text`
    : sql<string>`labstock_dec_add(location_holdings.quantity, excluded.quantity)`;
  for (let i = 0; i < rows.length; i += CHUNK)
    await ex
      .insertInto('location_holdings')
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc.columns(['location_id', 'unit_size', 'hazard_codes']).doUpdateSet({
          containers: sql<number>`location_holdings.containers + excluded.containers`,
          quantity: sum,
        }),
      )
      .execute();
}

/** New containers (`scope` names only rows this transaction inserted): what they hold is added, nothing read before. */
export async function holdingsAdded(ex: Executor, scope: HoldingsScope): Promise<void> {
  await applyHoldings(ex, [], await holdingsOf(ex, scope));
}

/**
 * PostgreSQL: the scope's items locked (in id order) before their containers are read, so that what `before`
 * reads is what the change starts from: every writer of a container holds its item's lock (touchItem,
 * lockVisibleItem). SQLite's writer holds the whole database already.
 */
async function lockItemsOf(ex: Executor, scope: HoldingsScope): Promise<void> {
  if (!isPostgres(ex)) return;
  for (let from = 0; ; from += CHUNK) {
    const c = condition(scope, from);
    if (!c) break;
    const items =
      'instanceIds' in scope
        ? sql`select i.item_id from inventory_item_instances i where ${c.where}`
        : sql`select it.id from inventory_items it where ${'typeId' in scope ? c.where : sql`it.id in (${sql.join(scope.itemIds.slice(from, from + CHUNK))})`}`;
    await sql`select id from inventory_items where id in (${items}) order by id for update`.execute(ex);
    if (!c.more) break;
  }
}

/**
 * Runs `change` (the caller's writes, in its transaction) and keeps the holdings of the scope's containers true
 * across it. The scope must name every container the change can add, move, archive, delete or re-profile.
 */
export async function trackHoldings<T>(ex: Executor, scope: HoldingsScope, change: () => Promise<T>): Promise<T> {
  await lockItemsOf(ex, scope);
  const before = await holdingsOf(ex, scope);
  const result = await change();
  await applyHoldings(ex, before, await holdingsOf(ex, scope));
  return result;
}

/**
 * Before a container's quantity is set to `quantity` (a PUT of its quantity, an adjustment, a count): its holding
 * changes by the difference from what the row holds now, in one statement. The caller holds its item's lock, so no
 * other writer changes the container in between (on PostgreSQL; SQLite has one writer).
 */
export async function holdingsBeforeQuantitySet(ex: Executor, instanceId: string, quantity: string): Promise<void> {
  const pg = isPostgres(ex);
  const delta = pg
    ? sql`(cast(${quantity} as numeric) - cast(i.quantity as numeric))::text`
    : sql`labstock_dec_add(${quantity}, '-' || i.quantity)`;
  const sum = pg
    ? sql`(cast(location_holdings.quantity as numeric) + cast(excluded.quantity as numeric))::text`
    : sql`labstock_dec_add(location_holdings.quantity, excluded.quantity)`;
  await sql`
    insert into location_holdings (location_id, unit_size, hazard_codes, containers, quantity)
    select location_id, unit_size, hazard_codes, 0, delta from (
      select i.location_id, coalesce(it.unit_size, '') as unit_size, ${codesOf(pg)} as hazard_codes, ${delta} as delta
      from inventory_item_instances i join inventory_items it on it.id = i.item_id
      where i.id = ${instanceId} and i.archived_at is null and i.location_id is not null) h
    where hazard_codes <> ''
    on conflict (location_id, unit_size, hazard_codes) do update set quantity = ${sum}`.execute(ex);
}

/** Every lab's holdings computed from the containers (what the table must equal): rebuild and tests. */
export async function holdingsFromScratch(ex: Executor, labId?: string): Promise<Holding[]> {
  const pg = isPostgres(ex);
  const quantity = pg ? sql.raw('sum(cast(i.quantity as numeric))::text') : sql.raw(`group_concat(i.quantity, ' ')`);
  const { rows } = await sql<Holding & { containers: number | string }>`
    select location_id, unit_size, hazard_codes, count(*) as containers, ${quantity} as quantity from (
      select i.location_id, coalesce(it.unit_size, '') as unit_size, i.quantity, ${codesOf(pg)} as hazard_codes
      from inventory_item_instances i join inventory_items it on it.id = i.item_id
      where i.archived_at is null and i.location_id is not null ${labId ? sql`and it.lab_id = ${labId}` : sql``}) i
    where hazard_codes <> ''
    group by location_id, unit_size, hazard_codes`.execute(ex);
  return rows.map((r) => ({
    ...r,
    containers: Number(r.containers),
    quantity: pg ? dec(r.quantity).toFixed() : sumQuantities(r.quantity),
  }));
}

/** The table's rows that hold something, quantities normalized (tests compare them with `holdingsFromScratch`). */
export async function storedHoldings(ex: Executor): Promise<Holding[]> {
  const rows = await ex.selectFrom('location_holdings').selectAll().where('containers', '<>', 0).execute();
  return rows.map((r) => ({ ...r, containers: Number(r.containers), quantity: dec(r.quantity).toFixed() }));
}

/** Computes the whole table again from the containers (`labstock admin rebuild`, bulk loads). */
export async function rebuildHoldings(ex: Executor): Promise<number> {
  const rows = await holdingsFromScratch(ex);
  await ex.deleteFrom('location_holdings').execute();
  await upsert(ex, rows);
  return rows.length;
}

/** A control area's holdings: the rows of its locations summed per unit size and statements. */
export async function holdingsAt(ex: Executor, locationIds: readonly string[]): Promise<Omit<Holding, 'location_id'>[]> {
  const ids = [...new Set(locationIds)];
  const byKey = new Map<string, { unit_size: string; hazard_codes: string; containers: number; quantity: Dec }>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await ex
      .selectFrom('location_holdings')
      .select(['unit_size', 'hazard_codes', 'containers', 'quantity'])
      .where('location_id', 'in', ids.slice(i, i + CHUNK))
      .where('containers', '>', 0)
      .execute();
    for (const r of rows) {
      const k = `${r.unit_size}\u0000${r.hazard_codes}`;
      const t = byKey.get(k);
      if (t) {
        t.containers += Number(r.containers);
        t.quantity = t.quantity.plus(r.quantity);
      } else byKey.set(k, { ...r, containers: Number(r.containers), quantity: dec(r.quantity) });
    }
  }
  return [...byKey.values()].map((t) => ({ ...t, quantity: t.quantity.toFixed() }));
}

/** The active containers at these locations of one holding (unit size and statements): those the meter lists. */
export async function containersOfHolding(ex: Executor, locationIds: readonly string[], h: { unit_size: string; hazard_codes: string }) {
  const pg = isPostgres(ex);
  const ids = [...new Set(locationIds)];
  const out: { instance_id: string; item_id: string; name: string; quantity: string; unit_size: string | null }[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const { rows } = await sql<(typeof out)[number]>`
      select instance_id, item_id, name, quantity, unit_size from (
        select i.id as instance_id, i.item_id, it.name, i.quantity, it.unit_size, ${codesOf(pg)} as hazard_codes
        from inventory_item_instances i join inventory_items it on it.id = i.item_id
        where i.location_id in (${sql.join(ids.slice(i, i + CHUNK))}) and i.archived_at is null
          and coalesce(it.unit_size, '') = ${h.unit_size}) c
      where hazard_codes = ${h.hazard_codes}`.execute(ex);
    out.push(...rows);
  }
  return out;
}

/** Which of these items have an active container at these locations. */
export async function itemsHeldAt(ex: Executor, locationIds: readonly string[], itemIds: readonly string[]): Promise<Set<string>> {
  const held = new Set<string>();
  const items = [...new Set(itemIds)];
  for (let j = 0; j < items.length; j += CHUNK) {
    const rows = await ex
      .selectFrom('inventory_item_instances')
      .select('item_id')
      .distinct()
      .where('item_id', 'in', items.slice(j, j + CHUNK))
      .where('location_id', 'in', [...new Set(locationIds)])
      .where('archived_at', 'is', null)
      .execute();
    for (const r of rows) held.add(r.item_id);
  }
  return held;
}

/** The exact sum of space-separated decimal quantities: whole numbers of up to 15 digits as numbers, others as decimals. */
export function sumQuantities(list: string): string {
  let whole = 0;
  let rest: Dec | null = null;
  for (const q of list.split(' ')) {
    if (q.length <= 15 && !q.includes('.')) whole += Number(q);
    else rest = (rest ?? dec(0)).plus(q);
    if (whole > 2 ** 52) {
      rest = (rest ?? dec(0)).plus(whole);
      whole = 0;
    }
  }
  return rest === null ? String(whole) : rest.plus(whole).toFixed();
}
