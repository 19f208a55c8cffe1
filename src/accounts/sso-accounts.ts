import { type Actor, systemActor } from '../shared/actor.js';
import type { Db } from '../shared/db/database.js';
import type { OrganizationSsoTable } from '../shared/db/schema.js';
import { nowIso } from '../shared/time.js';
import * as repo from './repository.js';
import { createUser } from './service.js';
import { SsoRefusal } from './sso.js';
import type { ProviderIdentity } from './sso-client.js';
import * as ssoRepo from './sso-repository.js';
import { parseDomains } from './sso-settings.js';

// Whom an organization's provider signs in (docs/auth.md, Single sign-on). An organization's admin chooses its
// provider, so what the provider asserts proves nothing about an account someone else made: a provider signs in
// only the accounts it created (at the first sign-in of an address nobody has) and those whose person linked it
// while signed in another way (POST /auth/sso/link). It never takes over, nor adds to its organization, an existing
// account by e-mail alone, whether that account is a member here or of another organization.

async function activeMember(db: Db, organizationId: string, userId: string): Promise<boolean> {
  const membership = await repo.findOrgMembership(db, organizationId, userId);
  if (!membership) return false;
  if (membership.deactivated_at) throw new SsoRefusal('sso_account_deactivated', 'The account is deactivated in this organization');
  return true;
}

/** The user a sign-in through this organization's provider is for; an SsoRefusal otherwise. */
export async function userFor(db: Db, settings: OrganizationSsoTable, identity: ProviderIdentity): Promise<string> {
  const key = { organization_id: settings.organization_id, issuer: settings.issuer, subject: identity.subject };
  const now = nowIso();
  const linked = await ssoRepo.findIdentity(db, key.organization_id, key.issuer, key.subject);
  if (linked) {
    if (!(await activeMember(db, key.organization_id, linked.user_id))) {
      throw new SsoRefusal('sso_account_deactivated', 'The linked account is no longer a member of this organization');
    }
    await ssoRepo.touchIdentity(db, key, now);
    return linked.user_id;
  }
  // The first sign-in of this subject: only an address that has no account at all gets one.
  if (!identity.email || !identity.emailVerified) {
    throw new SsoRefusal('sso_email_unverified', 'The provider did not state a verified e-mail address');
  }
  if (await repo.findUserByEmail(db, identity.email)) {
    throw new SsoRefusal(
      'sso_account_not_linked',
      'An account with this e-mail exists and is not linked to this provider: sign in with its password and link single sign-on in Settings',
    );
  }
  const domain = identity.email.split('@')[1] ?? '';
  if (!parseDomains(settings.allowed_domains).includes(domain)) {
    throw new SsoRefusal('sso_domain_not_allowed', `No account here, and ${domain} is not among the domains that get one`);
  }
  // Two first sign-ins of the same new address at once: the second's insert fails on the unique e-mail.
  const created = await createUser(db, systemActor('server'), {
    organizationId: key.organization_id,
    email: identity.email,
    firstName: identity.givenName ?? identity.email.split('@')[0]!,
    lastName: identity.familyName ?? '-',
    role: 'member',
  });
  await ssoRepo.insertIdentity(db, { ...key, user_id: created.id, created_at: now, last_sign_in_at: now });
  return created.id;
}

/**
 * The callback of a link flow: the person who started it (`flowUserId`, from a session of this organization) is
 * still the one signed in here (`current`, the session the browser brings back), so the provider's subject becomes
 * theirs. A subject linked to someone else stays theirs.
 */
export async function linkIdentity(
  db: Db,
  settings: OrganizationSsoTable,
  identity: ProviderIdentity,
  flowUserId: string,
  currentSession: () => Promise<{ userId: string; organizationId: string } | null>,
): Promise<string> {
  const current = await currentSession();
  if (!current || current.userId !== flowUserId || current.organizationId !== settings.organization_id) {
    throw new SsoRefusal('sso_link_session_missing', 'Linking needs the session that started it, in this organization');
  }
  if (!(await activeMember(db, settings.organization_id, flowUserId))) {
    throw new SsoRefusal('sso_link_session_missing', 'The person who started the link is no longer a member here');
  }
  const now = nowIso();
  const key = { organization_id: settings.organization_id, issuer: settings.issuer, subject: identity.subject };
  const linked = await ssoRepo.findIdentity(db, key.organization_id, key.issuer, key.subject);
  if (linked && linked.user_id !== flowUserId) {
    throw new SsoRefusal('sso_identity_in_use', "This provider account is linked to another person's account here");
  }
  if (linked) await ssoRepo.touchIdentity(db, key, now);
  else await ssoRepo.insertIdentity(db, { ...key, user_id: flowUserId, created_at: now, last_sign_in_at: now });
  return flowUserId;
}

/** GET /auth/sso/link: whether the session's organization has SSO on, and whether the person is linked to it. */
export async function ssoLinkState(db: Db, actor: Actor): Promise<{ available: boolean; linked: boolean }> {
  const settings = await ssoRepo.findSsoSettings(db, actor.organizationId);
  if (settings?.enabled !== 1) return { available: false, linked: false };
  const links = await ssoRepo.identitiesOf(db, actor.organizationId, settings.issuer, actor.userId);
  return { available: true, linked: links > 0 };
}
