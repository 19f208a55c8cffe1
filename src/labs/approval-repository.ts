import type { Actor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import type { LabApprovalRulesTable, LabRole } from '../shared/db/schema.js';

// Lab roles and approval rules (migration 0014, docs/ordering.md): this folder owns lab_memberships and
// lab_approval_rules; src/order-requests/ reads them here to decide who approves what.

export const findApprovalRule = (ex: Executor, labId: string) =>
  ex.selectFrom('lab_approval_rules').selectAll().where('lab_id', '=', labId).executeTakeFirst();

/** The rules of these labs (labs without a row have none). */
export async function approvalRulesOf(ex: Executor, labIds: readonly string[]): Promise<Map<string, LabApprovalRulesTable>> {
  if (labIds.length === 0) return new Map();
  const rows = await ex
    .selectFrom('lab_approval_rules')
    .selectAll()
    .where('lab_id', 'in', [...new Set(labIds)])
    .execute();
  return new Map(rows.map((r) => [r.lab_id, r]));
}

export async function saveApprovalRule(ex: Executor, row: LabApprovalRulesTable): Promise<void> {
  await ex
    .insertInto('lab_approval_rules')
    .values(row)
    .onConflict((oc) =>
      oc.column('lab_id').doUpdateSet({
        rule: row.rule,
        threshold_amount: row.threshold_amount,
        threshold_currency: row.threshold_currency,
        updated_by: row.updated_by,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

/** The user's role in the lab, or undefined when they do not belong to it. */
export async function labRoleOf(ex: Executor, labId: string, userId: string): Promise<LabRole | undefined> {
  const row = await ex
    .selectFrom('lab_memberships')
    .select('role')
    .where('lab_id', '=', labId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.role;
}

/** Sets a member's role; false when the user does not belong to the lab. */
export async function setLabRole(ex: Executor, labId: string, userId: string, role: LabRole): Promise<boolean> {
  const r = await ex
    .updateTable('lab_memberships')
    .set({ role })
    .where('lab_id', '=', labId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Approvers and managers of a lab whose organization membership is active, with what a mail needs. */
export function activeLabApprovers(ex: Executor, labId: string) {
  return ex
    .selectFrom('lab_memberships as lm')
    .innerJoin('labs as l', 'l.id', 'lm.lab_id')
    .innerJoin('org_memberships as om', (j) =>
      j.onRef('om.user_id', '=', 'lm.user_id').onRef('om.organization_id', '=', 'l.organization_id'),
    )
    .innerJoin('users as u', 'u.id', 'lm.user_id')
    .select(['lm.user_id', 'lm.role', 'u.email', 'u.first_name', 'l.name as lab_name'])
    .where('lm.lab_id', '=', labId)
    .where('lm.role', 'in', ['approver', 'manager'])
    .where('om.deactivated_at', 'is', null)
    .orderBy('lm.user_id')
    .execute();
}

/**
 * The labs whose requests this token may approve and that have a rule: every lab of the organization with one for
 * an org admin (who acts as a manager everywhere), else the labs where the user is an approver or manager.
 */
export function approvableLabIds(ex: Executor, actor: Actor) {
  let q = ex
    .selectFrom('lab_approval_rules as r')
    .innerJoin('labs as l', 'l.id', 'r.lab_id')
    .select('r.lab_id')
    .where('l.organization_id', '=', actor.organizationId)
    .where('r.rule', '!=', 'none');
  if (actor.role !== 'admin') {
    q = q.where(
      'r.lab_id',
      'in',
      ex
        .selectFrom('lab_memberships')
        .select('lab_memberships.lab_id')
        .where('lab_memberships.user_id', '=', actor.userId)
        .where('lab_memberships.role', 'in', ['approver', 'manager']),
    );
  }
  return q.execute().then((rows) => rows.map((r) => r.lab_id));
}
