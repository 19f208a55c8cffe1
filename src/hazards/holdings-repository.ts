import { type CompiledQuery, type ExpressionBuilder, type RawBuilder, sql } from 'kysely';
import { type Executor, isPostgres } from '../shared/db/database.js';
import { executeCompiled } from '../shared/db/precompiled.js';
import type { Database } from '../shared/db/schema.js';
import { type Dec, dec, sumQuantities } from '../shared/decimal.js';
import { profiled } from './holdings-key-repository.js';

// location_holdings (migration 0043): per location, the active containers summed per unit size, hazard statements
// in force (the item's own set, else its type's: ./repository.ts effectiveHazards) and storage attributes in force
// (acid, base, aqueous: the item's own row, else its type's: ./control-area-repository.ts); location_holding_items
// says which items' containers make up each of those holdings and how many. The control-area meter and the checks
// read them (src/inventory/area-holdings.ts, ./holdings-reads-repository.ts) instead of the containers. They stay true because
// every write that can change a holding goes through `trackHoldings` (or, for a quantity alone,
// `holdingsBeforeQuantitySet`): it reads what the written containers contributed before and after the change and
// applies the difference in the caller's transaction, its rows in key order (two writers take the rows' locks in
// the same order). The tables are this folder's: types, inventory and hazards all change what they sum.
// test/api/control-areas/holdings.consistency.test.ts and the property tests compare them with `holdingsFromScratch`.

/** Which containers a write may change: these instances, the instances of these items, or of a type's items. */
export type HoldingsScope = { instanceIds: readonly string[] } | { itemIds: readonly string[] } | { typeId: string };

export interface Holding {
  location_id: string;
  unit_size: string;
  hazard_codes: string;
  /** 'acid', 'base', 'aqueous', 'acid aqueous', … or ''. */
  storage: string;
  containers: number;
  quantity: string;
}
/** One item's share of a holding. */
export type ItemHolding = Holding & { item_id: string };

const CHUNK = 500;

function condition(scope: HoldingsScope, from: number): { where: RawBuilder<unknown>; more: boolean } | null {
  if ('typeId' in scope) return from === 0 ? { where: sql`it.type_id = ${scope.typeId}`, more: false } : null;
  const ids = 'instanceIds' in scope ? scope.instanceIds : scope.itemIds;
  if (from >= ids.length) return null;
  const col = 'instanceIds' in scope ? sql`i.id` : sql`i.item_id`;
  return { where: sql`${col} in (${sql.join(ids.slice(from, from + CHUNK))})`, more: from + CHUNK < ids.length };
}

async function grouped(ex: Executor, where: RawBuilder<unknown>): Promise<ItemHolding[]> {
  const pg = isPostgres(ex);
  const quantity = pg ? sql.raw('sum(cast(i.quantity as numeric))::text') : sql.raw(`group_concat(i.quantity, ' ')`);
  const { rows } = await sql<ItemHolding & { containers: number | string }>`
    select location_id, item_id, unit_size, hazard_codes, storage, count(*) as containers, ${quantity} as quantity
    from (${profiled(pg, where)}) i
    where hazard_codes <> '' or storage <> ''
    group by location_id, item_id, unit_size, hazard_codes, storage`.execute(ex);
  return rows.map((r) => ({
    ...r,
    containers: Number(r.containers),
    quantity: pg ? dec(r.quantity).toFixed() : sumQuantities(r.quantity),
  }));
}

/** What the scope's active, placed containers contribute now, per item (hazardous or attributed ones only). */
export async function holdingsOf(ex: Executor, scope: HoldingsScope): Promise<ItemHolding[]> {
  const out: ItemHolding[] = [];
  for (let from = 0; ; from += CHUNK) {
    const c = condition(scope, from);
    if (!c) break;
    out.push(...(await grouped(ex, c.where)));
    if (!c.more) break;
  }
  return out;
}

const keyOf = (h: Omit<Holding, 'containers' | 'quantity'>) =>
  `${h.location_id}\u0000${h.unit_size}\u0000${h.hazard_codes}\u0000${h.storage}`;
const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

/** Adds `after` and takes away `before`: the differences upserted in key order, into both tables. */
export async function applyHoldings(ex: Executor, before: readonly ItemHolding[], after: readonly ItemHolding[]): Promise<void> {
  const totals = new Map<string, { h: Holding; containers: number; quantity: Dec }>();
  const items = new Map<string, { h: ItemHolding; containers: number }>();
  const add = (h: ItemHolding, sign: 1 | -1) => {
    const k = keyOf(h);
    const t = totals.get(k) ?? { h, containers: 0, quantity: dec(0) };
    t.containers += sign * h.containers;
    t.quantity = sign === 1 ? t.quantity.plus(h.quantity) : t.quantity.minus(h.quantity);
    totals.set(k, t);
    const ik = `${k}\u0000${h.item_id}`;
    const i = items.get(ik) ?? { h, containers: 0 };
    i.containers += sign * h.containers;
    items.set(ik, i);
  };
  for (const h of before) add(h, -1);
  for (const h of after) add(h, 1);
  // A holding whose items changed but not its sums (one item's container left it as another's came) is written
  // all the same: its version is what tells the meter's memory that the names it lists changed.
  const itemsChanged = new Set([...items.values()].filter((i) => i.containers !== 0).map((i) => keyOf(i.h)));
  const base = (h: Holding) => ({ location_id: h.location_id, unit_size: h.unit_size, hazard_codes: h.hazard_codes, storage: h.storage });
  await upsert(
    ex,
    [...totals.entries()]
      .filter(([k, t]) => t.containers !== 0 || !t.quantity.isZero() || itemsChanged.has(k))
      .sort(byKey)
      .map(([, t]) => ({ ...base(t.h), containers: t.containers, quantity: t.quantity.toFixed() })),
  );
  const itemRows = [...items.entries()]
    .filter(([, i]) => i.containers !== 0)
    .sort(byKey)
    .map(([, i]) => ({ ...base(i.h), item_id: i.h.item_id, containers: i.containers }));
  await upsertItems(ex, itemRows);
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
        oc.columns(['location_id', 'unit_size', 'hazard_codes', 'storage']).doUpdateSet({
          containers: sql<number>`location_holdings.containers + excluded.containers`,
          quantity: sum,
          version: sql<number>`location_holdings.version + 1`,
        }),
      )
      .execute();
}

async function upsertItems(ex: Executor, rows: Omit<ItemHolding, 'quantity'>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK)
    await ex
      .insertInto('location_holding_items')
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) =>
        oc
          .columns(['location_id', 'unit_size', 'hazard_codes', 'storage', 'item_id'])
          .doUpdateSet({ containers: sql<number>`location_holding_items.containers + excluded.containers` }),
      )
      .execute();
  // An item that left a holding leaves no row behind (they would pile up with every move).
  if (rows.some((r) => r.containers < 0))
    await ex
      .deleteFrom('location_holding_items')
      .where('containers', '=', 0)
      .where('item_id', 'in', [...new Set(rows.filter((r) => r.containers < 0).map((r) => r.item_id))])
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
 * changes by the difference from what the row holds now, in one statement (its containers and items do not
 * change). The caller holds its item's lock, so no other writer changes the container in between (on
 * PostgreSQL; SQLite has one writer).
 */
export async function holdingsBeforeQuantitySet(ex: Executor, instanceId: string, quantity: string): Promise<void> {
  await executeCompiled(ex, holdingsBeforeQuantitySetQuery(ex, instanceId, quantity));
}

/**
 * The same as a compiled statement, to run in a batch before the instance's update (src/shared/db/precompiled.ts
 * runWrites: it reads the instance's quantity as it was before the batch, on both databases).
 */
export function holdingsBeforeQuantitySetQuery(ex: Executor, instanceId: string, quantity: string): CompiledQuery {
  const pg = isPostgres(ex);
  const delta = pg
    ? sql`(cast(${quantity} as numeric) - cast(h.quantity as numeric))::text`
    : sql`labstock_dec_add(${quantity}, '-' || h.quantity)`;
  const sum = pg
    ? sql`(cast(location_holdings.quantity as numeric) + cast(excluded.quantity as numeric))::text`
    : sql`labstock_dec_add(location_holdings.quantity, excluded.quantity)`;
  return sql`
    insert into location_holdings (location_id, unit_size, hazard_codes, storage, containers, quantity)
    select location_id, unit_size, hazard_codes, storage, 0, ${delta}
    from (${profiled(pg, sql`i.id = ${instanceId}`)}) h
    where hazard_codes <> '' or storage <> ''
    on conflict (location_id, unit_size, hazard_codes, storage)
    do update set quantity = ${sum}, version = location_holdings.version + 1`.compile(ex);
}

/** Every lab's holdings computed from the containers, per item (what the tables must equal): rebuild and tests. */
export const holdingsFromScratch = (ex: Executor): Promise<ItemHolding[]> => grouped(ex, sql`1 = 1`);

/** The tables' rows that hold something, quantities normalized (tests compare them with `holdingsFromScratch`). */
export async function storedHoldings(ex: Executor) {
  const totals = await ex.selectFrom('location_holdings').selectAll().where('containers', '<>', 0).execute();
  const items = await ex.selectFrom('location_holding_items').selectAll().where('containers', '<>', 0).execute();
  return {
    totals: totals.map((r) => ({ ...r, containers: Number(r.containers), quantity: dec(r.quantity).toFixed() })),
    items: items.map((r) => ({ ...r, containers: Number(r.containers) })),
  };
}

/**
 * Computes both tables again from the containers (`labstock admin rebuild`, bulk loads); returns the holdings.
 * The totals' rows are zeroed, not deleted, and their versions go up: an area's (rows, sum of versions) never
 * returns to a pair a running server may remember (src/inventory/area-holdings.ts).
 */
export async function rebuildHoldings(ex: Executor): Promise<number> {
  const rows = await holdingsFromScratch(ex);
  await ex.deleteFrom('location_holding_items').execute();
  await ex.updateTable('location_holdings').set({ containers: 0, quantity: '0', version: sql<number>`version + 1` }).execute();
  await applyHoldings(ex, [], rows);
  return (
    await ex
      .selectFrom('location_holdings')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('containers', '<>', 0)
      .executeTakeFirstOrThrow()
  ).n as number;
}

/** The item was renamed: the holdings its containers are part of change version, for the meter names it. */
export async function holdingsRenamed(ex: Executor, itemId: string): Promise<void> {
  const held = (eb: ExpressionBuilder<Database, 'location_holdings'>) =>
    eb.exists(
      eb
        .selectFrom('location_holding_items as hi')
        .select('hi.item_id')
        .where('hi.item_id', '=', itemId)
        .whereRef('hi.location_id', '=', 'location_holdings.location_id')
        .whereRef('hi.unit_size', '=', 'location_holdings.unit_size')
        .whereRef('hi.hazard_codes', '=', 'location_holdings.hazard_codes')
        .whereRef('hi.storage', '=', 'location_holdings.storage'),
    );
  // PostgreSQL: the rows locked in key order first, as every other writer of them does (no deadlock).
  if (isPostgres(ex))
    await ex
      .selectFrom('location_holdings')
      .select('location_id')
      .where(held)
      .orderBy(['location_id', 'unit_size', 'hazard_codes', 'storage'])
      .forUpdate()
      .execute();
  await ex.updateTable('location_holdings').set({ version: sql<number>`version + 1` }).where(held).execute();
}
