import type { Executor } from '../shared/db/database.js';
import type { OperatorAuditTable, OperatorsTable, OperatorTokensTable } from '../shared/db/schema.js';

export type OperatorRow = OperatorsTable;
export type AuditRow = OperatorAuditTable;

export async function insertOperator(ex: Executor, row: OperatorRow): Promise<void> {
  await ex.insertInto('operators').values(row).execute();
}

export const findOperator = (ex: Executor, id: string) => ex.selectFrom('operators').selectAll().where('id', '=', id).executeTakeFirst();

export const findOperatorByEmail = (ex: Executor, email: string) =>
  ex.selectFrom('operators').selectAll().where('email', '=', email).executeTakeFirst();

export const findOperatorOfUser = (ex: Executor, userId: string) =>
  ex.selectFrom('operators').selectAll().where('user_id', '=', userId).orderBy('created_at').executeTakeFirst();

export const listOperators = (ex: Executor) => ex.selectFrom('operators').selectAll().orderBy('created_at').orderBy('id').execute();

/** Ids of users who are named by an operator that is not disabled (for `admin user list`). */
export async function activeOperatorUserIds(ex: Executor): Promise<Set<string>> {
  const rows = await ex.selectFrom('operators').select('user_id').where('disabled_at', 'is', null).execute();
  return new Set(rows.map((r) => r.user_id));
}

export async function setDisabledAt(ex: Executor, id: string, at: string | null): Promise<void> {
  await ex.updateTable('operators').set({ disabled_at: at }).where('id', '=', id).execute();
}

export async function insertToken(ex: Executor, row: OperatorTokensTable): Promise<void> {
  await ex.insertInto('operator_tokens').values(row).execute();
}

/** An unrevoked token of an operator that is not disabled, with what authentication needs, in one query. */
export const findActiveTokenByHash = (ex: Executor, tokenHash: string) =>
  ex
    .selectFrom('operator_tokens')
    .innerJoin('operators', 'operators.id', 'operator_tokens.operator_id')
    .select(['operator_tokens.id as token_id', 'operator_tokens.last_used_at', 'operators.id as operator_id', 'operators.user_id'])
    .where('operator_tokens.token_hash', '=', tokenHash)
    .where('operator_tokens.revoked_at', 'is', null)
    .where('operators.disabled_at', 'is', null)
    .executeTakeFirst();

export async function touchToken(ex: Executor, tokenId: string, now: string): Promise<void> {
  await ex.updateTable('operator_tokens').set({ last_used_at: now }).where('id', '=', tokenId).execute();
}

const TOKEN_COLUMNS = ['id', 'operator_id', 'name', 'created_at', 'last_used_at', 'revoked_at'] as const;

export const findToken = (ex: Executor, id: string) =>
  ex.selectFrom('operator_tokens').select(TOKEN_COLUMNS).where('id', '=', id).executeTakeFirst();

export function listTokens(ex: Executor, operatorId?: string) {
  let q = ex.selectFrom('operator_tokens').select(TOKEN_COLUMNS).orderBy('created_at').orderBy('id');
  if (operatorId) q = q.where('operator_id', '=', operatorId);
  return q.execute();
}

export async function revokeToken(ex: Executor, id: string, now: string): Promise<number> {
  const r = await ex
    .updateTable('operator_tokens')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function revokeTokensOf(ex: Executor, operatorId: string, now: string): Promise<number> {
  const r = await ex
    .updateTable('operator_tokens')
    .set({ revoked_at: now })
    .where('operator_id', '=', operatorId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function insertAudit(ex: Executor, row: AuditRow): Promise<void> {
  await ex.insertInto('operator_audit').values(row).execute();
}

export interface AuditFilter {
  operatorId?: string;
  lineId?: string;
  shipmentId?: string;
  limit: number;
}

/** The newest entries first. */
export function listAudit(ex: Executor, filter: AuditFilter) {
  let q = ex.selectFrom('operator_audit').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit);
  if (filter.operatorId) q = q.where('operator_id', '=', filter.operatorId);
  if (filter.lineId) q = q.where('sales_order_item_id', '=', filter.lineId);
  if (filter.shipmentId) q = q.where('shipment_id', '=', filter.shipmentId);
  return q.execute();
}
