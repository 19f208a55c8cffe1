import type { Actor, SystemActor } from '../shared/actor.js';
import type { Config } from '../shared/config.js';
import type { Db } from '../shared/db/database.js';
import { AppError, fieldError, notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { shownChanged } from '../shared/shown-elsewhere.js';
import { nowIso } from '../shared/time.js';
import { describeSession } from './auth.js';
import * as authRepo from './auth-repository.js';
import { invitationMail } from './link-mail.js';
import type { AcceptInvitationBody, InvitationDetails, InviteUserBody, IssuedLinkBody } from './link-schemas.js';
import {
  belongsOnlyTo,
  checkLinkThrottle,
  findUsableLink,
  issueLink,
  LINK_LIFETIME_MS,
  type LinkDeps,
  linkNotUsable,
  recordLinkFailure,
  sendLinkMail,
} from './links.js';
import * as linksRepo from './links-repository.js';
import { checkPasswordPolicy, hashPassword, verifyAgainstDummy, verifyPassword } from './passwords.js';
import * as repo from './repository.js';
import { normalizeEmail } from './service.js';
import { createSession } from './sessions.js';
import { attempt, throttleKeys } from './throttle.js';
import { requireAdmin } from './user-tokens.js';

// Invitations (docs/auth.md): an org admin invites by e-mail; the person gets a one-time link, valid 7 days, in
// the admin's answer and by mail when SMTP is configured. Accepting sets the name and password of an account that
// has none and signs in. An account that already has a password (its owner belongs to another organization too)
// proves it with that password instead: a link an admin holds never sets the password of someone else's account.
// Inviting an existing account answers like inviting a new address and makes it a member only when accepted.

const displayName = (u: { first_name: string; last_name: string; email: string }) =>
  `${`${u.first_name} ${u.last_name}`.trim() || u.email}`;

async function mailInvitation(
  deps: LinkDeps,
  inviterId: string | null,
  userId: string,
  organizationId: string,
  link: { id: string; url: string; expires_at: string },
) {
  const [users, org] = await Promise.all([
    repo.userSummaries(deps.db, inviterId ? [inviterId, userId] : [userId]),
    repo.findOrganization(deps.db, organizationId),
  ]);
  const inviter = inviterId ? users.get(inviterId) : undefined;
  const mail = invitationMail({
    to: users.get(userId)!.email,
    inviter: inviter ? `${displayName(inviter)} <${inviter.email}>` : null,
    organization: org!.name,
    url: link.url,
    expiresAt: link.expires_at,
  });
  return sendLinkMail(deps, mail, link.id);
}

/** POST /organization/users: a new user (or an existing account from another organization) and their invitation. */
export async function inviteUser(deps: LinkDeps, actor: Actor, input: InviteUserBody) {
  requireAdmin(actor);
  const email = normalizeEmail(input.email);
  const organizationId = actor.organizationId;
  const { userId, link, pendingAt } = await deps.db.transaction().execute(async (trx) => {
    const now = nowIso();
    let user = await repo.findUserByEmail(trx, email);
    let pendingAt: string | null = null;
    if (user) {
      const membership = await repo.findOrgMembership(trx, organizationId, user.id);
      if (membership?.deactivated_at) {
        throw new AppError(
          'conflict',
          `${email} is a deactivated user of the organization: reactivate them (PUT /organization/users/{id})`,
        );
      }
      // Invited already and not yet accepted counts as belonging: the same answer as for a new address invited twice.
      if (membership || (await linksRepo.pendingInvitations(trx, organizationId, user.id)).length > 0)
        throw new AppError(
          'conflict',
          `${email} already belongs to the organization (a new link: POST /organization/users/{id}/invitation)`,
        );
      // Someone else's account: nothing of it is answered and no membership is made until they accept (issue 22).
      pendingAt = now;
    } else {
      user = {
        id: newId(),
        email,
        first_name: input.first_name?.trim() ?? '',
        last_name: input.last_name?.trim() ?? '',
        is_operator: 0,
        created_at: now,
      };
      await repo.insertUser(trx, user);
    }
    if (!pendingAt) await repo.upsertOrgMembership(trx, organizationId, user.id, input.role ?? 'member', now);
    const link = await issueLink(trx, deps.appUrl, {
      kind: 'invitation',
      userId: user.id,
      organizationId,
      createdBy: actor.userId,
      lifetimeMs: LINK_LIFETIME_MS.invitation,
      ...(pendingAt ? { invitedRole: input.role ?? 'member' } : {}),
    });
    return { userId: user.id, link, pendingAt };
  });
  const mailed = await mailInvitation(deps, actor.userId, userId, organizationId, link);
  const invitation = { url: link.url, expires_at: link.expires_at, mailed };
  if (pendingAt) {
    // Shaped as the row of a new address (the names as the admin typed them), named by the invitation's id.
    return {
      id: link.id,
      first_name: input.first_name?.trim() ?? '',
      last_name: input.last_name?.trim() ?? '',
      email,
      role: input.role ?? 'member',
      deactivated_at: null,
      created_at: pendingAt,
      invitation_expires_at: link.expires_at,
      invitation,
    };
  }
  const row = await repo.findOrganizationUser(deps.db, organizationId, userId);
  return { ...row!, invitation };
}

/** POST /organization/users/{id}/invitation: a new link for a member (the older ones stop working). */
export async function reissueInvitation(deps: LinkDeps, actor: Actor, id: string): Promise<IssuedLinkBody> {
  const current = await repo.findOrganizationUser(deps.db, actor.organizationId, id);
  // Not a member: perhaps an existing account's invitation still waiting, named by its own id.
  const pending = current ? undefined : (await linksRepo.pendingInvitations(deps.db, actor.organizationId)).find((p) => p.id === id);
  if (!current && !pending) throw notFound('user');
  requireAdmin(actor);
  if (current?.deactivated_at)
    throw new AppError('conflict', 'The user is deactivated: reactivate them first (PUT /organization/users/{id})');
  const userId = pending?.user_id ?? id;
  const link = await issueLink(deps.db, deps.appUrl, {
    kind: 'invitation',
    userId,
    organizationId: actor.organizationId,
    createdBy: actor.userId,
    lifetimeMs: LINK_LIFETIME_MS.invitation,
    ...(pending ? { invitedRole: pending.role } : {}),
  });
  const mailed = await mailInvitation(deps, actor.userId, userId, actor.organizationId, link);
  return { url: link.url, expires_at: link.expires_at, mailed };
}

/** GET /auth/invitations/{token}: whom the invitation is for and to which organization; nothing else. */
export async function describeInvitation(db: Db, secret: string, address: string): Promise<InvitationDetails> {
  await checkLinkThrottle(db, address);
  const link = await findUsableLink(db, secret, 'invitation');
  const org = !link
    ? undefined
    : link.invited_role
      ? await repo.findOrganization(db, link.organization_id!)
      : await linksRepo.activeMembershipIn(db, link.user_id, link.organization_id!);
  const user = link ? await repo.findUser(db, link.user_id) : undefined;
  if (!link || !org || !user) {
    await recordLinkFailure(db, address);
    throw linkNotUsable();
  }
  return {
    email: user.email,
    organization: { id: org.id, name: org.name },
    existing_account: (await authRepo.findPasswordHash(db, user.id)) !== null,
    expires_at: link.expires_at,
  };
}

type Times = Pick<Config, 'sessionIdleTimeoutMs' | 'sessionMaxAgeMs' | 'sessionRotateMs'>;

/**
 * POST /auth/invitations/accept: sets the name and password (or checks the existing password), uses the link up
 * and signs in to the inviting organization. Returns what sign-in returns.
 */
export async function acceptInvitation(db: Db, times: Times & { appUrl: string }, input: AcceptInvitationBody, address: string) {
  await checkLinkThrottle(db, address);
  const link = await findUsableLink(db, input.token, 'invitation');
  const user = link ? await repo.findUser(db, link.user_id) : undefined;
  if (!link || !user) {
    await recordLinkFailure(db, address);
    throw linkNotUsable();
  }
  const organizationId = link.organization_id!;
  const stored = await authRepo.findPasswordHash(db, user.id);
  let newHash: string | null = null;
  let names: { first: string; last: string } | null = null;
  if (stored) {
    // Guessing the password through an invitation is throttled like sign-in, per account and per address.
    if (!(await attempt(db, throttleKeys(user.email, address), async () => (await verifyPassword(stored, input.password)) || null))) {
      throw new AppError('unauthorized', 'The password is wrong: this account already has one (forgotten? POST /auth/password-reset)');
    }
  } else {
    if (!belongsOnlyTo(await linksRepo.membershipsOf(db, user.id), organizationId)) {
      await verifyAgainstDummy(input.password);
      throw new AppError(
        'conflict',
        'This account belongs to another organization too: set its password by e-mail first (POST /auth/password-reset)',
      );
    }
    names = { first: (input.first_name ?? user.first_name).trim(), last: (input.last_name ?? user.last_name).trim() };
    if (!names.first) throw fieldError('first_name', 'is required');
    if (!names.last) throw fieldError('last_name', 'is required');
    checkPasswordPolicy(input.password, user.email);
    newHash = await hashPassword(input.password);
  }
  await db.transaction().execute(async (trx) => {
    const now = nowIso();
    if (!(await linksRepo.useLink(trx, link.id, now))) throw linkNotUsable();
    // An existing account's invitation: the membership is made now, as the person accepts (issue 22).
    if (link.invited_role) await repo.upsertOrgMembership(trx, organizationId, user.id, link.invited_role, now);
    if (newHash && names) {
      await authRepo.setPasswordHash(trx, user.id, newHash, now);
      await linksRepo.setUserNames(trx, user.id, names.first, names.last);
      if (names.first !== user.first_name || names.last !== user.last_name) await shownChanged(trx, times.appUrl, { userIds: [user.id] });
      // Any reset link still out would set the password again: it ends with the password set here.
      await linksRepo.revokeLinks(trx, user.id, 'password_reset', now);
    }
  });
  const membership = await linksRepo.activeMembershipIn(db, user.id, organizationId);
  if (!membership) throw linkNotUsable();
  const { secret, session } = await createSession(db, times, user.id, organizationId);
  return { secret, session, body: await describeSession(db, times, session, membership.role) };
}

/**
 * `labstock admin bootstrap`: the first organization and its admin, and an invitation link for the admin to set
 * a name and password. Refused once any organization exists: later admins are invited by an admin.
 */
export async function bootstrap(db: Db, _by: SystemActor, appUrl: string, input: { organization: string; email: string }) {
  const email = normalizeEmail(input.email, 'email');
  const name = input.organization.trim();
  if (!name) throw fieldError('org', 'must not be empty');
  return db.transaction().execute(async (trx) => {
    if ((await linksRepo.countOrganizations(trx)) > 0) {
      throw new AppError(
        'conflict',
        'An organization exists already: bootstrap only sets up an empty installation (see admin user reset-link)',
      );
    }
    const now = nowIso();
    const org = { id: newId(), name, created_at: now };
    await repo.insertOrganization(trx, org);
    let user = await repo.findUserByEmail(trx, email);
    if (!user) {
      user = { id: newId(), email, first_name: '', last_name: '', is_operator: 0, created_at: now };
      await repo.insertUser(trx, user);
    }
    await repo.upsertOrgMembership(trx, org.id, user.id, 'admin', now);
    const link = await issueLink(trx, appUrl, {
      kind: 'invitation',
      userId: user.id,
      organizationId: org.id,
      createdBy: null,
      lifetimeMs: LINK_LIFETIME_MS.invitation,
    });
    return { organization: org, user: { id: user.id, email: user.email }, url: link.url, expires_at: link.expires_at };
  });
}
