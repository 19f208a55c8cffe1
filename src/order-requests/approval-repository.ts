import type { Executor } from '../shared/db/database.js';
import type { ApprovalNoticesTable } from '../shared/db/schema.js';

// Approval queries of the order-requests folder (docs/ordering.md): the requests waiting for approval in some labs,
// and approval_notices (migration 0014), the mails to approvers still to send (src/order-requests/approval-mail.ts).

/** CREATED requests of these labs not requested by `userId`, oldest first; the caller applies each lab's rule. */
export function createdRequestsOf(ex: Executor, labIds: readonly string[], userId: string, labId?: string) {
  if (labIds.length === 0) return Promise.resolve([]);
  let q = ex
    .selectFrom('order_requests')
    .selectAll()
    .where('lab_id', 'in', [...labIds])
    .where('status', '=', 'CREATED')
    .where('requested_by', '!=', userId);
  if (labId !== undefined) q = q.where('lab_id', '=', labId);
  return q.orderBy('created_at').orderBy('id').execute();
}

export async function insertApprovalNotices(ex: Executor, rows: ApprovalNoticesTable[]): Promise<void> {
  if (rows.length === 0) return;
  await ex.insertInto('approval_notices').values(rows).execute();
}

/** Notices nobody is sending (no lease, or one that ran out), oldest first. */
export const dueApprovalNotices = (ex: Executor, now: string, limit: number) =>
  ex
    .selectFrom('approval_notices')
    .selectAll()
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();

/** Takes a notice for this worker until `leaseUntil`; false when another took it first (or it is gone). */
export async function claimApprovalNotice(ex: Executor, id: string, now: string, leaseUntil: string): Promise<boolean> {
  const r = await ex
    .updateTable('approval_notices')
    .set({ lease_until: leaseUntil })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** After a failed send: nobody takes the notice again before `retryAt`. */
export async function postponeApprovalNotice(ex: Executor, id: string, retryAt: string): Promise<void> {
  await ex.updateTable('approval_notices').set({ lease_until: retryAt }).where('id', '=', id).execute();
}

export async function deleteApprovalNotices(ex: Executor, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await ex
    .deleteFrom('approval_notices')
    .where('id', 'in', [...ids])
    .execute();
}

/** Every pending notice's id (email is off: they are dropped). */
export const allApprovalNoticeIds = (ex: Executor, limit: number) =>
  ex
    .selectFrom('approval_notices')
    .select('id')
    .limit(limit)
    .execute()
    .then((rows) => rows.map((r) => r.id));
