import { type RawBuilder, sql } from 'kysely';
import { type Executor, isPostgres } from '../shared/db/database.js';
import { type Dec, dec } from '../shared/decimal.js';

// What is stored at locations, with what the placement checks need of each container (docs/safety.md): the item,
// its type and name, its unit size and the container's quantity. Read through the partial index on active
// instances by location (migration 0037), a statement per chunk of locations whatever their number of instances.

export interface StoredRow {
  instance_id: string;
  item_id: string;
  location_id: string;
  quantity: string;
  name: string;
  type_id: string | null;
  unit_size: string | null;
}

const CHUNK = 500;

export async function activeInstancesAt(ex: Executor, locationIds: readonly string[]): Promise<StoredRow[]> {
  const ids = [...new Set(locationIds)];
  const out: StoredRow[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await ex
      .selectFrom('inventory_item_instances as i')
      .innerJoin('inventory_items as it', 'it.id', 'i.item_id')
      .select(['i.id as instance_id', 'i.item_id', 'i.location_id', 'i.quantity', 'it.name', 'it.type_id', 'it.unit_size'])
      .where('i.location_id', 'in', ids.slice(i, i + CHUNK))
      .where('i.archived_at', 'is', null)
      .execute();
    for (const r of rows) out.push({ ...r, location_id: r.location_id! });
  }
  return out;
}

/** An item's active instances' locations (where an approved request's goods will most likely go). */
export async function locationsOfItem(ex: Executor, itemId: string): Promise<string[]> {
  const rows = await ex
    .selectFrom('inventory_item_instances')
    .select('location_id')
    .distinct()
    .where('item_id', '=', itemId)
    .where('archived_at', 'is', null)
    .where('location_id', 'is not', null)
    .execute();
  return rows.map((r) => r.location_id!);
}

/** Active instances by id, with their item's lab, name, type and unit size (the preflight's containers). */
export function instancesByIds(ex: Executor, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return ex
    .selectFrom('inventory_item_instances as i')
    .innerJoin('inventory_items as it', 'it.id', 'i.item_id')
    .select(['i.id as instance_id', 'i.item_id', 'i.quantity', 'i.location_id', 'it.lab_id', 'it.name', 'it.type_id', 'it.unit_size'])
    .where('i.id', 'in', [...ids])
    .where('i.archived_at', 'is', null)
    .execute();
}

/** Items by id with what a placement needs of them. */
export function itemsByIds(ex: Executor, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return ex
    .selectFrom('inventory_items')
    .select(['id', 'lab_id', 'name', 'type_id', 'unit_size'])
    .where('id', 'in', [...ids])
    .execute();
}

/**
 * What a control area holds, grouped by what the meter counts it by: the unit size and the hazard statements in
 * force (the item's own set, else its type's: src/hazards/repository.ts effectiveHazards), with the containers'
 * count, their summed quantity (exact decimal) and the items of the group (space-separated ids).
 */
export interface HeldGroup {
  unit_size: string | null;
  /** Space-separated statement codes, or null for none. */
  codes: string | null;
  containers: number;
  quantity: string;
  item_ids: string;
}

/**
 * A control area's holdings in one statement per chunk of locations (issue 26 bench: a few groups, whatever the
 * number of containers): an index-only scan of instances_active_location_idx (migration 0042) grouped by item,
 * each item's unit size and statements in force, grouped again. PostgreSQL sums the decimals; SQLite would sum
 * text as floating point, so it hands the quantities over and they are added here, exactly.
 */
export async function heldGroupsAt(ex: Executor, locationIds: readonly string[]): Promise<HeldGroup[]> {
  const ids = [...new Set(locationIds)];
  const pg = isPostgres(ex);
  const concat = (col: string) => (pg ? sql.raw(`string_agg(${col}, ' ')`) : sql.raw(`group_concat(${col}, ' ')`));
  // SQLite's planner has no statistics unless ANALYZE ran: it is told which indexes cover (migration 0042).
  const via = (index: string) => (pg ? sql`` : sql.raw(`indexed by ${index}`));
  // Each held item's row by its id: PostgreSQL would misjudge how many there are and scan every item (offset 0
  // keeps the lateral lookup from being flattened into a join); the hazard sets likewise, as scalar lookups.
  const itemOf = pg
    ? sql`cross join lateral (select i2.unit_size, i2.type_id from inventory_items i2 where i2.id = h.item_id offset 0) it`
    : sql`join inventory_items it ${via('inventory_items_profile_idx')} on it.id = h.item_id`;
  const byKey = new Map<string, HeldGroup>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const { rows } = await withoutJit(
      ex,
      sql<HeldGroup & { containers: number | string }>`
      with held as (
        select item_id, count(*) as containers, ${pg ? sql`sum(cast(quantity as numeric))` : concat('quantity')} as quantity
        from inventory_item_instances ${via('instances_active_location_idx')}
        where location_id in (${sql.join(ids.slice(i, i + CHUNK))}) and archived_at is null
        group by item_id
      ), profiled as (
        select h.item_id, h.containers, h.quantity, it.unit_size,
          coalesce(
            (select own.id from hazard_sets own ${via('hazard_sets_item_cover_idx')} where own.item_id = h.item_id),
            (select typ.id from hazard_sets typ ${via('hazard_sets_type_cover_idx')} where typ.type_id = it.type_id)
          ) as set_id
        from held h
        ${itemOf}
      ), coded as (
        select p.*, (select ${concat('c.code')} from hazard_set_codes c where c.set_id = p.set_id) as codes from profiled p
      )
      select unit_size, codes, sum(containers) as containers, ${pg ? sql`sum(quantity)::text` : concat('quantity')} as quantity,
        ${concat('item_id')} as item_ids
      from coded
      group by unit_size, codes`,
    );
    for (const r of rows) {
      const row = { ...r, containers: Number(r.containers), quantity: pg ? r.quantity : sumQuantities(r.quantity) };
      const key = JSON.stringify([r.unit_size, r.codes]);
      const prev = byKey.get(key);
      if (!prev) byKey.set(key, row);
      else
        Object.assign(prev, {
          containers: prev.containers + row.containers,
          quantity: dec(prev.quantity).plus(row.quantity).toFixed(),
          item_ids: `${prev.item_ids} ${row.item_ids}`,
        });
    }
  }
  return [...byKey.values()];
}

/**
 * PostgreSQL estimates one group per container (not per item) and so a cost above jit_above_cost: compiling the
 * statement took longer than running it (~18 ms of ~38 at 10,000 containers). JIT is turned off for the
 * statement's transaction (the caller's, or one of its own).
 */
function withoutJit<R>(ex: Executor, query: RawBuilder<R>) {
  if (!isPostgres(ex)) return query.execute(ex);
  if (ex.isTransaction) return sql`set local jit = off`.execute(ex).then(() => query.execute(ex));
  return ex.transaction().execute(async (trx) => {
    await sql`set local jit = off`.execute(trx);
    return query.execute(trx);
  });
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

/** The active containers at these locations of these items only (an area's containers listed one by one). */
export async function activeInstancesOfItemsAt(
  ex: Executor,
  locationIds: readonly string[],
  itemIds: readonly string[],
): Promise<StoredRow[]> {
  if (itemIds.length === 0) return [];
  const ids = [...new Set(locationIds)];
  const out: StoredRow[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    for (let j = 0; j < itemIds.length; j += CHUNK) {
      const rows = await ex
        .selectFrom('inventory_item_instances as i')
        .innerJoin('inventory_items as it', 'it.id', 'i.item_id')
        .select(['i.id as instance_id', 'i.item_id', 'i.location_id', 'i.quantity', 'it.name', 'it.type_id', 'it.unit_size'])
        .where('i.location_id', 'in', ids.slice(i, i + CHUNK))
        .where('i.item_id', 'in', itemIds.slice(j, j + CHUNK))
        .where('i.archived_at', 'is', null)
        .execute();
      for (const r of rows) out.push({ ...r, location_id: r.location_id! });
    }
  }
  return out;
}
