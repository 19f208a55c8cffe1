import type { Executor } from '../shared/db/database.js';
import type { AlertNoticesTable, AlertsTable } from '../shared/db/schema.js';

// The alert tables (migration 0013): alerts, alert_notices, notification_preferences. Every statement takes a
// batch, so a scan or a digest run costs a fixed number of statements per batch (src/alerts/scan.ts, digest.ts).

/**
 * Opens the alerts that are not open yet, and returns only those: an open alert is unique per (item, cause)
 * (alerts_open_idx), so of two workers inserting the same one on PostgreSQL the second waits for the first's
 * commit and then inserts nothing. The caller emits events for exactly what comes back, in the same transaction.
 */
export async function openAlerts(
  ex: Executor,
  rows: AlertsTable[],
): Promise<{ id: string; item_id: string; cause: AlertsTable['cause'] }[]> {
  if (rows.length === 0) return [];
  return ex
    .insertInto('alerts')
    .values(rows)
    .onConflict((oc) => oc.columns(['item_id', 'cause']).where('cleared_at', 'is', null).doNothing())
    .returning(['id', 'item_id', 'cause'])
    .execute();
}

/** Open alerts after `afterId` in id order, for the clearing pass. */
export function openAlertsAfter(ex: Executor, afterId: string, limit: number) {
  return ex
    .selectFrom('alerts')
    .select(['id', 'item_id', 'cause'])
    .where('cleared_at', 'is', null)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function clearAlerts(ex: Executor, ids: string[], now: string): Promise<void> {
  if (ids.length === 0) return;
  await ex.updateTable('alerts').set({ cleared_at: now }).where('id', 'in', ids).where('cleared_at', 'is', null).execute();
}

export async function insertNotices(ex: Executor, rows: AlertNoticesTable[]): Promise<void> {
  if (rows.length === 0) return;
  await ex
    .insertInto('alert_notices')
    .values(rows)
    .onConflict((oc) => oc.columns(['user_id', 'alert_id']).doNothing())
    .execute();
}

/**
 * People with notices whose digest is due: no digest since `cutoff` (a day ago) and nobody sending it now. A
 * person without a preferences row has never had one.
 */
export async function dueDigestUsers(ex: Executor, afterUserId: string, limit: number, cutoff: string, now: string): Promise<string[]> {
  const rows = await ex
    .selectFrom('alert_notices as n')
    .leftJoin('notification_preferences as p', 'p.user_id', 'n.user_id')
    .select('n.user_id')
    .distinct()
    .where('n.user_id', '>', afterUserId)
    .where((eb) =>
      eb.or([
        eb('p.user_id', 'is', null),
        eb.and([
          eb.or([eb('p.last_digest_at', 'is', null), eb('p.last_digest_at', '<=', cutoff)]),
          eb.or([eb('p.digest_lease_until', 'is', null), eb('p.digest_lease_until', '<', now)]),
        ]),
      ]),
    )
    .orderBy('n.user_id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.user_id);
}

/** Gives these people a preferences row with the defaults where they have none. */
export async function ensurePreferences(ex: Executor, userIds: string[], now: string): Promise<void> {
  if (userIds.length === 0) return;
  await ex
    .insertInto('notification_preferences')
    .values(userIds.map((user_id) => ({ user_id, email_digest: 1, last_digest_at: null, digest_lease_until: null, updated_at: now })))
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

/** Takes the digests still due for this worker until `leaseUntil`; returns whom it got. */
export function claimDigests(ex: Executor, userIds: string[], cutoff: string, now: string, leaseUntil: string) {
  if (userIds.length === 0) return Promise.resolve([]);
  return ex
    .updateTable('notification_preferences')
    .set({ digest_lease_until: leaseUntil })
    .where('user_id', 'in', userIds)
    .where((eb) => eb.or([eb('last_digest_at', 'is', null), eb('last_digest_at', '<=', cutoff)]))
    .where((eb) => eb.or([eb('digest_lease_until', 'is', null), eb('digest_lease_until', '<', now)]))
    .returning(['user_id'])
    .execute();
}

/** The pending notices of these people, with what their alerts said. */
export function noticesOf(ex: Executor, userIds: string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return ex
    .selectFrom('alert_notices as n')
    .innerJoin('alerts as a', 'a.id', 'n.alert_id')
    .select([
      'n.user_id',
      'n.alert_id',
      'a.item_id',
      'a.lab_id',
      'a.organization_id',
      'a.cause',
      'a.item_name',
      'a.lab_name',
      'a.detail',
      'a.fired_at',
    ])
    .where('n.user_id', 'in', userIds)
    .orderBy('n.user_id')
    .orderBy('a.lab_name')
    .orderBy('a.item_name')
    .orderBy('a.fired_at')
    .execute();
}

/** Removes notices: those sent, or those nobody will read (opted out, no longer a member). */
export async function deleteNotices(ex: Executor, notices: { user_id: string; alert_id: string }[]): Promise<void> {
  if (notices.length === 0) return;
  await ex
    .deleteFrom('alert_notices')
    .where((eb) => eb.or(notices.map((n) => eb.and([eb('user_id', '=', n.user_id), eb('alert_id', '=', n.alert_id)]))))
    .execute();
}

/** Ends the lease; with `sentAt`, also records the digest (the next one is due a day later). */
export async function releaseDigests(ex: Executor, userIds: string[], sentAt: string | null): Promise<void> {
  if (userIds.length === 0) return;
  await ex
    .updateTable('notification_preferences')
    .set(sentAt ? { digest_lease_until: null, last_digest_at: sentAt } : { digest_lease_until: null })
    .where('user_id', 'in', userIds)
    .execute();
}

/**
 * Forgets cleared alerts older than `before` (and anything still pending for them), and notices older than
 * `before` (a digest that could not go out for that long, e.g. with email off, would only be noise).
 */
export async function prune(ex: Executor, before: string): Promise<void> {
  const old = ex.selectFrom('alerts').select('id').where('cleared_at', '<', before);
  await ex
    .deleteFrom('alert_notices')
    .where((eb) => eb.or([eb('created_at', '<', before), eb('alert_id', 'in', old)]))
    .execute();
  await ex.deleteFrom('alerts').where('cleared_at', '<', before).execute();
}

export const findPreferences = (ex: Executor, userId: string, organizationId: string) =>
  ex
    .selectFrom('digest_preferences')
    .select(['email_digest'])
    .where('user_id', '=', userId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();

export async function savePreferences(ex: Executor, userId: string, organizationId: string, emailDigest: boolean, now: string) {
  await ex
    .insertInto('digest_preferences')
    .values({ user_id: userId, organization_id: organizationId, email_digest: emailDigest ? 1 : 0, updated_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'organization_id']).doUpdateSet({ email_digest: emailDigest ? 1 : 0, updated_at: now }))
    .execute();
}

/** The organizations in which these people turned the digest off (migration 0018: per person and organization). */
export const digestOptOuts = (ex: Executor, userIds: string[]) =>
  userIds.length === 0
    ? Promise.resolve([])
    : ex
        .selectFrom('digest_preferences')
        .select(['user_id', 'organization_id'])
        .where('user_id', 'in', userIds)
        .where('email_digest', '=', 0)
        .execute();
