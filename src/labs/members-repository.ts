import type { Executor } from '../shared/db/database.js';

// Who is in a lab now, for reminders and alerts (src/alerts/): members of the lab whose membership of its
// organization is active (not deactivated), with what an email needs.

export async function activeLabMembers(ex: Executor, labIds: readonly string[], userIds?: readonly string[]) {
  if (labIds.length === 0 || userIds?.length === 0) return [];
  let q = ex
    .selectFrom('lab_memberships as lm')
    .innerJoin('labs as l', 'l.id', 'lm.lab_id')
    .innerJoin('org_memberships as om', (j) =>
      j.onRef('om.user_id', '=', 'lm.user_id').onRef('om.organization_id', '=', 'l.organization_id'),
    )
    .innerJoin('users as u', 'u.id', 'lm.user_id')
    .select(['lm.lab_id', 'lm.user_id', 'u.email', 'u.first_name'])
    .where('lm.lab_id', 'in', [...new Set(labIds)])
    .where('om.deactivated_at', 'is', null);
  if (userIds) q = q.where('lm.user_id', 'in', [...new Set(userIds)]);
  return q.execute();
}
