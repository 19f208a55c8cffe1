import { visibleLabIds } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import { type Executor, isPostgres } from '../shared/db/database.js';
import type { LabSpendSettingsTable, SpendTrackingCodesTable } from '../shared/db/schema.js';

// Spend tracking codes, each lab's over-budget setting, and the requests that count against a code (migration 0015).

export type SpendCodeRow = SpendTrackingCodesTable;

export const codesOfLab = (ex: Executor, labId: string) =>
  ex.selectFrom('spend_tracking_codes').selectAll().where('lab_id', '=', labId).orderBy('name').orderBy('id').execute();

export const findCodeByName = (ex: Executor, labId: string, name: string) =>
  ex.selectFrom('spend_tracking_codes').selectAll().where('lab_id', '=', labId).where('name', '=', name).executeTakeFirst();

/**
 * The code, row-locked on PostgreSQL until the transaction ends: two requests ordered at once on the same code
 * check its budget one after the other, so a blocking lab cannot be overspent by a race. SQLite's write
 * transactions are serial already.
 */
export function findCodeForBudget(ex: Executor, labId: string, name: string) {
  const q = ex.selectFrom('spend_tracking_codes').selectAll().where('lab_id', '=', labId).where('name', '=', name);
  return (isPostgres(ex) ? q.forUpdate() : q).executeTakeFirst();
}

/** A code whose lab the token may see; undefined for any other (another organization's included). */
export const findVisibleCode = (ex: Executor, actor: Actor, id: string) =>
  ex.selectFrom('spend_tracking_codes').selectAll().where('id', '=', id).where('lab_id', 'in', visibleLabIds(ex, actor)).executeTakeFirst();

export async function updateCode(
  ex: Executor,
  id: string,
  set: Partial<Pick<SpendCodeRow, 'period' | 'budget_amount' | 'budget_currency'>> & { updated_at: string },
): Promise<void> {
  await ex.updateTable('spend_tracking_codes').set(set).where('id', '=', id).execute();
}

export async function insertCode(ex: Executor, row: SpendCodeRow): Promise<void> {
  await ex.insertInto('spend_tracking_codes').values(row).execute();
}

export const findSettings = (ex: Executor, labId: string) =>
  ex.selectFrom('lab_spend_settings').selectAll().where('lab_id', '=', labId).executeTakeFirst();

export async function saveSettings(ex: Executor, row: LabSpendSettingsTable): Promise<void> {
  await ex
    .insertInto('lab_spend_settings')
    .values(row)
    .onConflict((oc) => oc.column('lab_id').doUpdateSet({ over_budget: row.over_budget, updated_at: row.updated_at }))
    .execute();
}

/**
 * The prices of a lab's requests that count against its codes in [from, until): ORDERED, BACKORDERED or RECEIVED,
 * ordered in that span (`except` leaves one request out, the one being checked). `codes` narrows to those names.
 */
export function countedRequests(ex: Executor, labId: string, span: { from: string; until: string }, codes?: string[], except?: string) {
  let q = ex
    .selectFrom('order_requests')
    .select(['spend_tracking_code', 'unit_price', 'quantity', 'currency'])
    .where('lab_id', '=', labId)
    .where('spend_tracking_code', 'is not', null)
    .where('status', 'in', ['ORDERED', 'BACKORDERED', 'RECEIVED'])
    .where('ordered_at', '>=', span.from)
    .where('ordered_at', '<', span.until);
  if (codes !== undefined) q = q.where('spend_tracking_code', 'in', codes.length > 0 ? codes : ['']);
  if (except !== undefined) q = q.where('id', '!=', except);
  return q.execute();
}
