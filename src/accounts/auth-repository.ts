import { sql } from 'kysely';
import type { Executor } from '../shared/db/database.js';
import type { SessionsTable } from '../shared/db/schema-accounts-auth.js';

// Queries of the sign-in tables (sessions, sign_in_throttle) and of the password columns, owned by accounts/.

/** Sign-in reads the hash here and nowhere else; every other user query leaves it out (repository.ts). */
export const findCredentials = (ex: Executor, email: string) =>
  ex.selectFrom('users').select(['id', 'email', 'password_hash']).where('email', '=', email).executeTakeFirst();

export async function setPasswordHash(ex: Executor, userId: string, passwordHash: string, now: string): Promise<number> {
  const r = await ex
    .updateTable('users')
    .set({ password_hash: passwordHash, password_changed_at: now })
    .where('id', '=', userId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export const findPasswordHash = async (ex: Executor, userId: string) =>
  (await ex.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst())?.password_hash ?? null;

/** The active memberships a user may sign in to, oldest first (the default organization of a sign-in). */
export const activeMemberships = (ex: Executor, userId: string) =>
  ex
    .selectFrom('org_memberships')
    .innerJoin('organizations', 'organizations.id', 'org_memberships.organization_id')
    .select(['org_memberships.organization_id', 'organizations.name', 'org_memberships.role'])
    .where('org_memberships.user_id', '=', userId)
    .where('org_memberships.deactivated_at', 'is', null)
    .orderBy('org_memberships.created_at')
    .orderBy('org_memberships.organization_id')
    .execute();

export async function insertSession(ex: Executor, row: SessionsTable): Promise<void> {
  await ex.insertInto('sessions').values(row).execute();
}

/**
 * The session whose current cookie value (or, within the grace after a rotation, previous one) hashes to this,
 * with the membership it acts through: one query, and none for a deactivated membership.
 */
export const findSessionByHash = (ex: Executor, secretHash: string) =>
  ex
    .selectFrom('sessions')
    .innerJoin('org_memberships', (j) =>
      j.onRef('org_memberships.user_id', '=', 'sessions.user_id').onRef('org_memberships.organization_id', '=', 'sessions.organization_id'),
    )
    .selectAll('sessions')
    .select('org_memberships.role')
    .where((eb) => eb.or([eb('sessions.secret_hash', '=', secretHash), eb('sessions.previous_secret_hash', '=', secretHash)]))
    .where('org_memberships.deactivated_at', 'is', null)
    .executeTakeFirst();

export async function touchSession(ex: Executor, id: string, now: string): Promise<void> {
  await ex.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
}

/** Replaces the cookie value; only when it is still `expectedHash`, so two requests rotating at once rotate once. */
export async function rotateSession(ex: Executor, id: string, expectedHash: string, newHash: string, now: string): Promise<boolean> {
  const r = await ex
    .updateTable('sessions')
    .set({ secret_hash: newHash, previous_secret_hash: expectedHash, rotated_at: now, last_seen_at: now })
    .where('id', '=', id)
    .where('secret_hash', '=', expectedHash)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function deleteSession(ex: Executor, id: string): Promise<void> {
  await ex.deleteFrom('sessions').where('id', '=', id).execute();
}

/** Every session of the user, or only those acting in one organization. */
export async function deleteUserSessions(ex: Executor, userId: string, organizationId?: string): Promise<number> {
  let q = ex.deleteFrom('sessions').where('user_id', '=', userId);
  if (organizationId) q = q.where('organization_id', '=', organizationId);
  return Number((await q.executeTakeFirst()).numDeletedRows);
}

/** A user's sessions that ended by time; deleted at each sign-in of that user, so ended rows do not pile up. */
export async function deleteEndedSessions(ex: Executor, userId: string, now: string, idleBefore: string): Promise<number> {
  const r = await ex
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', idleBefore)]))
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

export const findLocks = (ex: Executor, keys: string[], now: string) =>
  ex.selectFrom('sign_in_throttle').select(['key', 'locked_until']).where('key', 'in', keys).where('locked_until', '>', now).execute();

/**
 * Counts one failure in one statement (concurrent wrong attempts each count); the count starts again at 1 when the
 * previous failure is older than `resetBefore`. Returns the new count. An attempt's reservation, if any, stays held.
 */
export async function countFailure(ex: Executor, key: string, now: string, resetBefore: string): Promise<number> {
  const row = await ex
    .insertInto('sign_in_throttle')
    .values({ key, failures: 1, last_failure_at: now, locked_until: null, pending: 0, pending_at: null })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => ({
        failures: eb
          .case()
          .when('sign_in_throttle.last_failure_at', '<', resetBefore)
          .then(1)
          .else(eb('sign_in_throttle.failures', '+', 1))
          .end(),
        last_failure_at: now,
      })),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  return Number(row.failures);
}

export async function lockUntil(ex: Executor, key: string, until: string): Promise<void> {
  await ex.updateTable('sign_in_throttle').set({ locked_until: until }).where('key', '=', key).execute();
}

/**
 * Reserves an attempt on a key in one statement, before its secret is verified (src/accounts/throttle.ts): true
 * unless the key is locked, or its failures and the attempts in flight already fill its `free` failures while one
 * is in flight. Failures older than `resetBefore` and attempts reserved before `staleBefore` no longer count.
 */
export async function reserveAttempt(
  ex: Executor,
  key: string,
  free: number,
  times: { now: string; resetBefore: string; staleBefore: string },
): Promise<boolean> {
  const { now, resetBefore, staleBefore } = times;
  const row = await ex
    .insertInto('sign_in_throttle')
    .values({ key, failures: 0, last_failure_at: now, locked_until: null, pending: 1, pending_at: now })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet({ pending: sql`${livePending(staleBefore)} + 1`, pending_at: now })
        .where((eb) =>
          eb.and([
            eb.or([eb('sign_in_throttle.locked_until', 'is', null), eb('sign_in_throttle.locked_until', '<=', now)]),
            eb.or([
              sql<boolean>`${livePending(staleBefore)} = 0`,
              sql<boolean>`${liveFailures(resetBefore)} + ${livePending(staleBefore)} < ${free}`,
            ]),
          ]),
        ),
    )
    .returning('key')
    .executeTakeFirst();
  return row !== undefined;
}

const livePending = (staleBefore: string) =>
  sql<number>`(case when sign_in_throttle.pending_at is null or sign_in_throttle.pending_at < ${staleBefore} then 0 else sign_in_throttle.pending end)`;
const liveFailures = (resetBefore: string) =>
  sql<number>`(case when sign_in_throttle.last_failure_at < ${resetBefore} then 0 else sign_in_throttle.failures end)`;

/**
 * Ends a reserved attempt on a key: `lockUntil` extends the key's lock (never shortens it), `clear` forgets its
 * failures and lock (a success on the account). In one statement, after the failure is counted, so the attempt's
 * reservation holds the budget until the lock is in place.
 */
export async function endAttempt(ex: Executor, key: string, end: { lockUntil?: string; clear?: boolean } = {}): Promise<void> {
  await ex
    .updateTable('sign_in_throttle')
    .set((eb) => ({
      pending: eb
        .case()
        .when('pending', '>', 0)
        .then(eb('pending', '-', 1))
        .else(0)
        .end(),
      ...(end.clear ? { failures: 0, locked_until: null } : {}),
      ...(end.lockUntil
        ? {
            locked_until: eb
              .case()
              .when(eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', end.lockUntil)]))
              .then(end.lockUntil)
              .else(eb.ref('locked_until'))
              .end(),
          }
        : {}),
    }))
    .where('key', '=', key)
    .execute();
}

/** After a password change: every session of the user but the one that changed it. */
export async function deleteOtherSessions(ex: Executor, userId: string, keepId: string | null): Promise<void> {
  let q = ex.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepId) q = q.where('id', '!=', keepId);
  await q.execute();
}

/** Deletes the session whose current cookie value hashes to this; returns the ids deleted (none or one). */
export async function deleteSessionBySecretHash(ex: Executor, secretHash: string): Promise<string[]> {
  const rows = await ex.deleteFrom('sessions').where('secret_hash', '=', secretHash).returning('id').execute();
  return rows.map((r) => r.id);
}
