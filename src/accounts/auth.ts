import { randomBytes } from 'node:crypto';
import type { Actor, SystemActor } from '../shared/actor.js';
import type { Config } from '../shared/config.js';
import type { Db } from '../shared/db/database.js';
import type { SessionsTable } from '../shared/db/schema-accounts-auth.js';
import { AppError, fieldError, notFound } from '../shared/errors.js';
import { nowIso } from '../shared/time.js';
import { changingAuth } from './auth-cache.js';
import * as authRepo from './auth-repository.js';
import { membershipsOf } from './links-repository.js';
import { checkPasswordPolicy, hashPassword, verifyAgainstDummy, verifyPassword } from './passwords.js';
import * as repo from './repository.js';
import type { AuthSession, SignInBody, UpdateCurrentUserBody } from './schemas.js';
import { updateCurrentUser } from './service.js';
import { createSession, idleExpiresAt } from './sessions.js';
import { attempt, throttleKeys } from './throttle.js';

// Sign-in and passwords (docs/auth.md). Every failed sign-in answers alike, whatever failed (unknown e-mail, no
// password set, wrong password, no active membership, an organization the user is not in), and costs one argon2
// verification, so neither the answer nor its timing tells which e-mails have accounts.

type Times = Pick<Config, 'sessionIdleTimeoutMs' | 'sessionMaxAgeMs' | 'sessionRotateMs'>;

const WRONG = 'The e-mail address or password is wrong';

export async function signIn(db: Db, times: Times, input: SignInBody, address: string) {
  const email = input.email.trim().toLowerCase();
  const signedIn = await attempt(db, throttleKeys(email, address), async () => {
    const user = await authRepo.findCredentials(db, email);
    const ok = user?.password_hash ? await verifyPassword(user.password_hash, input.password) : await verifyAgainstDummy(input.password);
    const memberships = ok && user ? await authRepo.activeMemberships(db, user.id) : [];
    const chosen = input.organization_id ? memberships.find((m) => m.organization_id === input.organization_id) : memberships[0];
    return ok && user && chosen ? { user, chosen } : null;
  });
  if (!signedIn) throw new AppError('unauthorized', WRONG);
  const { user, chosen } = signedIn;
  const { secret, session } = await createSession(db, times, user.id, chosen.organization_id);
  return { secret, session, body: await describeSession(db, times, session, chosen.role) };
}

/** The body of POST /auth/sign-in and GET /auth/session. */
export async function describeSession(db: Db, times: Times, session: SessionsTable, role: 'admin' | 'member'): Promise<AuthSession> {
  const [users, memberships] = await Promise.all([
    repo.userSummaries(db, [session.user_id]),
    authRepo.activeMemberships(db, session.user_id),
  ]);
  const user = users.get(session.user_id);
  const current = memberships.find((m) => m.organization_id === session.organization_id);
  if (!user || !current) throw new AppError('unauthorized', 'The session has ended');
  const choice = (m: (typeof memberships)[number]) => ({ id: m.organization_id, name: m.name, role: m.role });
  return {
    signed_in: true,
    user,
    organization: { ...choice(current), role },
    organizations: memberships.map(choice),
    csrf_token: session.csrf_token,
    expires_at: session.expires_at,
    idle_expires_at: idleExpiresAt(session, times),
  };
}

/**
 * Sets a user's password after the policy check, on the installation's authority (the command line and the demo;
 * invitations and resets have their own). Sessions are left alone here; changePassword ends the others.
 */
export async function setPassword(db: Db, _by: SystemActor, userId: string, password: string): Promise<void> {
  const user = await repo.findUser(db, userId);
  if (!user) throw notFound('user');
  checkPasswordPolicy(password, user.email);
  await authRepo.setPasswordHash(db, userId, await hashPassword(password), nowIso());
}

/** The caller's own password, checked and throttled like sign-in (422 on `current_password` when wrong). */
async function confirmPassword(db: Db, userId: string, password: string, address: string) {
  const user = await repo.findUser(db, userId);
  if (!user) throw new AppError('unauthorized', "The caller's user no longer exists");
  // Counted like a sign-in attempt; a right password leaves the account's count as it was, as it always has.
  const ok = await attempt(
    db,
    throttleKeys(user.email, address),
    async () => {
      const stored = await authRepo.findPasswordHash(db, userId);
      return (stored ? await verifyPassword(stored, password) : await verifyAgainstDummy(password)) || null;
    },
    { clearOnSuccess: false },
  );
  if (!ok) {
    throw new AppError('validation_failed', 'current_password: is wrong', { errors: [{ field: 'current_password', message: 'is wrong' }] });
  }
  return user;
}

/**
 * PUT /user: the name is the person's in every organization they belong to, so while they belong to more than one,
 * a token or session of one organization changes it only with the person's own password (issue 22; docs/auth.md).
 */
export async function updateOwnName(db: Db, appUrl: string, actor: Actor, input: UpdateCurrentUserBody, address: string) {
  const { current_password: password, ...names } = input;
  if ((await membershipsOf(db, actor.userId)).length > 1) {
    if (password === undefined) {
      throw fieldError('current_password', 'is required: you belong to more than one organization, and your name shows in all of them');
    }
    await confirmPassword(db, actor.userId, password, address);
  }
  return updateCurrentUser(db, appUrl, actor, names);
}

/** PUT /user/password: the current password is required (and throttled like sign-in); every other session ends. */
export async function changePassword(
  db: Db,
  actor: Actor,
  input: { current: string; next: string },
  context: { keepSessionId: string | null; address: string },
) {
  const user = await confirmPassword(db, actor.userId, input.current, context.address);
  checkPasswordPolicy(input.next, user.email, 'new_password');
  const hash = await hashPassword(input.next);
  await changingAuth(db, [{ userId: actor.userId }], async (trx) => {
    await authRepo.setPasswordHash(trx, actor.userId, hash, nowIso());
    await authRepo.deleteOtherSessions(trx, actor.userId, context.keepSessionId);
  });
}

/** The demo's sign-in: a fresh random password for the demo admin, returned once to be printed (`labstock demo`). */
export async function setDemoPassword(db: Db, by: SystemActor, userId: string): Promise<{ email: string; password: string }> {
  const password = `demo-${randomBytes(12).toString('base64url')}`;
  await setPassword(db, by, userId, password);
  return { email: (await repo.findUser(db, userId))!.email, password };
}
