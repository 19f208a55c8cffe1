import { labIsVisible, visibleLabIds } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import { type Executor, isPostgres } from '../shared/db/database.js';
import { pagedList } from '../shared/db/paged-list.js';
import type { ControlledItemsTable, ControlledLedgerTable, ControlledWitnessesTable } from '../shared/db/schema.js';
import type { Page } from '../shared/pagination.js';

// The controlled-substance tables (migration 0039), owned here; reads of the item, its instances and locations
// (owned by inventory/ and locations/) for what the ledger shows. The ledger is only ever inserted into.

export type LedgerRow = ControlledLedgerTable;
export type LedgerView = LedgerRow & {
  witnessed_by: string | null;
  witnessed_at: string | null;
  from_location_name: string | null;
  to_location_name: string | null;
  item_name: string | null;
};

export const findControlled = (ex: Executor, itemId: string) =>
  ex.selectFrom('controlled_items').selectAll().where('item_id', '=', itemId).executeTakeFirst();

export async function insertControlled(ex: Executor, row: ControlledItemsTable): Promise<void> {
  await ex.insertInto('controlled_items').values(row).execute();
}

export async function updateSchedule(ex: Executor, itemId: string, schedule: string): Promise<void> {
  await ex.updateTable('controlled_items').set({ schedule }).where('item_id', '=', itemId).execute();
}

export async function deleteControlled(ex: Executor, itemId: string): Promise<void> {
  await ex.deleteFrom('controlled_items').where('item_id', '=', itemId).execute();
}

/** The item the actor sees (its lab visible), locked on PostgreSQL as inventory/ locks it for a change. */
export function findVisibleItem(ex: Executor, actor: Actor, itemId: string, opts: { lock?: boolean } = {}) {
  let q = ex
    .selectFrom('inventory_items')
    .select(['id', 'lab_id', 'name', 'quantity', 'unit_size'])
    .where('id', '=', itemId)
    .where('lab_id', 'in', visibleLabIds(ex, actor));
  if (opts.lock && isPostgres(ex)) q = q.forUpdate();
  return q.executeTakeFirst();
}

export const findLab = (ex: Executor, labId: string) =>
  ex.selectFrom('labs').select(['id', 'name', 'uses_instances', 'organization_id']).where('id', '=', labId).executeTakeFirst();

/** The quantities that make the item's balance: its active instances' in a lab that uses them. */
export const activeInstanceQuantities = (ex: Executor, itemId: string) =>
  ex
    .selectFrom('inventory_item_instances')
    .select(['id', 'quantity'])
    .where('item_id', '=', itemId)
    .where('archived_at', 'is', null)
    .execute();

export const instanceQuantity = async (ex: Executor, instanceId: string) =>
  (await ex.selectFrom('inventory_item_instances').select('quantity').where('id', '=', instanceId).executeTakeFirst())?.quantity;

export const lastEntry = (ex: Executor, itemId: string) =>
  ex.selectFrom('controlled_ledger').selectAll().where('item_id', '=', itemId).orderBy('seq', 'desc').limit(1).executeTakeFirst();

export async function insertEntries(ex: Executor, rows: LedgerRow[]): Promise<void> {
  if (rows.length > 0) await ex.insertInto('controlled_ledger').values(rows).execute();
}

export async function insertWitness(ex: Executor, row: ControlledWitnessesTable): Promise<void> {
  await ex.insertInto('controlled_witnesses').values(row).execute();
}

function joined(ex: Executor) {
  return ex
    .selectFrom('controlled_ledger as e')
    .leftJoin('controlled_witnesses as w', 'w.entry_id', 'e.id')
    .leftJoin('locations as lf', 'lf.id', 'e.from_location_id')
    .leftJoin('locations as lt', 'lt.id', 'e.to_location_id')
    .leftJoin('inventory_items as i', 'i.id', 'e.item_id');
}

type Joined = ReturnType<typeof joined>;

const withColumns = (q: Joined) =>
  q
    .selectAll('e')
    .select(['w.witnessed_by', 'w.witnessed_at', 'lf.name as from_location_name', 'lt.name as to_location_name', 'i.name as item_name']);

const entries = (ex: Executor) => withColumns(joined(ex));

/** An entry of a lab the actor sees, with its witness. */
export function findVisibleEntry(ex: Executor, actor: Actor, entryId: string) {
  return entries(ex)
    .where('e.id', '=', entryId)
    .where(labIsVisible(ex, actor, 'e.lab_id'), 'is not', null)
    .executeTakeFirst();
}

export const isWitnessed = async (ex: Executor, entryId: string) =>
  (await ex.selectFrom('controlled_witnesses').select('entry_id').where('entry_id', '=', entryId).executeTakeFirst()) !== undefined;

/** An item's ledger, oldest first (a page of it). */
export function pageLedger(ex: Executor, itemId: string, page: Page) {
  const filtered = joined(ex).where('e.item_id', '=', itemId);
  return pagedList(filtered, withColumns(filtered).orderBy('e.seq'), page);
}

/** Entries of an item no one has witnessed yet. */
export const unwitnessedOf = (ex: Executor, itemId: string) =>
  entries(ex).where('e.item_id', '=', itemId).where('w.entry_id', 'is', null).orderBy('e.seq').execute();

/** Entries waiting for a witness in the labs the actor sees (or one of them), oldest first, with the item's name. */
export function pageWaiting(ex: Executor, actor: Actor, labId: string | undefined, page: Page) {
  let filtered = joined(ex).where('w.entry_id', 'is', null).where('e.lab_id', 'in', visibleLabIds(ex, actor));
  if (labId) filtered = filtered.where('e.lab_id', '=', labId);
  return pagedList(filtered, withColumns(filtered).orderBy('e.created_at').orderBy('e.seq').orderBy('e.id'), page);
}

/** Controlled items of the labs the actor sees (or one lab, or one item), by name. */
export function pageControlled(ex: Executor, actor: Actor, filter: { labId?: string; itemId?: string }, page: Page) {
  let filtered = ex
    .selectFrom('controlled_items as c')
    .innerJoin('inventory_items as i', 'i.id', 'c.item_id')
    .where('c.lab_id', 'in', visibleLabIds(ex, actor));
  if (filter.labId) filtered = filtered.where('c.lab_id', '=', filter.labId);
  if (filter.itemId) filtered = filtered.where('c.item_id', '=', filter.itemId);
  const rows = filtered.selectAll('c').select(['i.name as item_name']).orderBy('i.name').orderBy('c.item_id');
  return pagedList(filtered, rows, page);
}

/** What a count session counted of an item: each counted instance's quantity (null: ticked, as recorded). */
export const countedInSession = (ex: Executor, sessionId: string, itemId: string) =>
  ex
    .selectFrom('stocktake_counts as c')
    .innerJoin('stocktake_sessions as s', 's.id', 'c.session_id')
    .select(['c.quantity', 'c.recorded_quantity', 's.lab_id'])
    .where('c.session_id', '=', sessionId)
    .where('c.item_id', '=', itemId)
    .execute();

/** An item's entries recorded in [from, until), oldest first, with their witnesses (for the reconciliation's PDF). */
export const entriesBetween = (ex: Executor, itemId: string, from: string, until: string) =>
  entries(ex)
    .where('e.item_id', '=', itemId)
    .where('e.created_at', '>=', from)
    .where('e.created_at', '<', until)
    .orderBy('e.seq')
    .execute();

/** The item's last entry before `at`: its balance is the period's opening balance. */
export const lastEntryBefore = (ex: Executor, itemId: string, at: string) =>
  ex
    .selectFrom('controlled_ledger')
    .select(['balance', 'created_at'])
    .where('item_id', '=', itemId)
    .where('created_at', '<', at)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();

export const firstEntry = (ex: Executor, itemId: string) =>
  ex.selectFrom('controlled_ledger').select('created_at').where('item_id', '=', itemId).orderBy('seq').limit(1).executeTakeFirst();

/** Every controlled item of a lab, by name. */
export const controlledOfLab = (ex: Executor, labId: string) =>
  ex
    .selectFrom('controlled_items as c')
    .innerJoin('inventory_items as i', 'i.id', 'c.item_id')
    .select(['c.item_id', 'c.schedule', 'i.id', 'i.lab_id', 'i.name', 'i.quantity', 'i.unit_size'])
    .where('c.lab_id', '=', labId)
    .orderBy('i.name')
    .orderBy('c.item_id')
    .execute();

/** The latest count session, not cancelled, that counted any of the item's containers: its id and last count time. */
export const lastCountSession = (ex: Executor, itemId: string) =>
  ex
    .selectFrom('stocktake_counts as c')
    .innerJoin('stocktake_sessions as s', 's.id', 'c.session_id')
    .select(['c.session_id', 'c.counted_at'])
    .where('c.item_id', '=', itemId)
    .where('s.status', '!=', 'cancelled')
    .orderBy('c.counted_at', 'desc')
    .orderBy('c.session_id', 'desc')
    .limit(1)
    .executeTakeFirst();
