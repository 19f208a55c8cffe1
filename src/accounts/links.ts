import { createHash, randomBytes } from 'node:crypto';
import type { Db, Executor } from '../shared/db/database.js';
import type { UserLinksTable } from '../shared/db/schema.js';
import { AppError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Mailer, MailLogger, OutgoingMail } from '../shared/mail.js';
import * as repo from './links-repository.js';
import { checkThrottle, recordAddressFailure } from './throttle.js';

// One-time links (docs/auth.md, Invitations and password resets). The secret is 32 random bytes in base64url, shown
// once (in the answer, the mail or the CLI's output); the row keeps only its SHA-256, like tokens
// (src/accounts/tokens.ts). A link works once, until it expires, while the person's membership is active. A new
// invitation revokes the person's older unused ones of that organization; a new reset link revokes only the older
// unused ones of its own source, so the person asking, an admin and the operator never cancel each other's links
// (anyone who knows an e-mail address may ask for a reset). Setting the password by any of them ends all of them.

export type LinkKind = UserLinksTable['kind'];
/** Who made a link: the person by e-mail, an org admin, or the operator (the command line; bootstrap). */
export type LinkSource = UserLinksTable['source'];

const HOUR = 60 * 60_000;
export const LINK_LIFETIME_MS = {
  invitation: 7 * 24 * HOUR,
  /** Made by an org admin or the CLI and handed over by hand, so it gets a day. */
  issuedReset: 24 * HOUR,
  /** Asked for by the person, mailed to them: an hour. */
  requestedReset: HOUR,
} as const;

/** At most one self-service reset mail per account in this time, so the form cannot flood someone's mailbox. */
export const RESET_REQUEST_INTERVAL_MS = 60_000;

/** What the services of invitations and resets need from outside. */
export interface LinkDeps {
  db: Db;
  appUrl: string;
  mailer: Mailer;
  log: MailLogger;
}

const PATHS: Record<LinkKind, string> = { invitation: 'invitations', password_reset: 'password-reset' };

/** The web application's page for a link (issue 13 builds them): APP_URL/app/invitations/<secret>, …/password-reset/<secret>. */
export const linkUrl = (appUrl: string, kind: LinkKind, secret: string): string => `${appUrl}/app/${PATHS[kind]}/${secret}`;

export const hashLinkSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** Only something shaped like a secret is hashed and looked up. */
const SECRET_RE = /^[\w-]{43}$/;

export interface IssuedLink {
  id: string;
  secret: string;
  url: string;
  expires_at: string;
}

/**
 * Creates a link and revokes the user's older unused links it replaces: invitations of that organization, or resets
 * of the same source. `source` defaults to 'admin' with a `createdBy`, else 'operator'.
 */
export async function issueLink(
  ex: Executor,
  appUrl: string,
  input: {
    kind: LinkKind;
    userId: string;
    organizationId: string | null;
    createdBy: string | null;
    lifetimeMs: number;
    source?: LinkSource;
    invitedRole?: 'admin' | 'member';
  },
  now = Date.now(),
): Promise<IssuedLink> {
  const at = new Date(now).toISOString();
  const source = input.source ?? (input.createdBy ? 'admin' : 'operator');
  if (input.kind === 'invitation') await repo.revokeLinks(ex, input.userId, input.kind, at, input.organizationId ?? undefined);
  else await repo.revokeLinks(ex, input.userId, input.kind, at, undefined, source);
  const secret = randomBytes(32).toString('base64url');
  const row: UserLinksTable = {
    id: newId(),
    kind: input.kind,
    user_id: input.userId,
    organization_id: input.organizationId,
    token_hash: hashLinkSecret(secret),
    created_by: input.createdBy,
    created_at: at,
    expires_at: new Date(now + input.lifetimeMs).toISOString(),
    used_at: null,
    revoked_at: null,
    source,
    invited_role: input.invitedRole ?? null,
  };
  await repo.insertLink(ex, row);
  return { id: row.id, secret, url: linkUrl(appUrl, input.kind, secret), expires_at: row.expires_at };
}

/**
 * The link a secret names while it works: not used, revoked or expired, and its person still active (in the link's
 * organization; for a link of no organization, in some organization). An admin's reset link also stops working once
 * the person belongs to another organization too (docs/auth.md, "who may set a password").
 */
export async function findUsableLink(ex: Executor, secret: string, kind: LinkKind): Promise<UserLinksTable | null> {
  if (!SECRET_RE.test(secret)) return null;
  const link = await repo.findValidLink(ex, hashLinkSecret(secret), kind, new Date().toISOString());
  if (!link) return null;
  const memberships = await repo.membershipsOf(ex, link.user_id);
  const active = memberships.filter((m) => m.deactivated_at === null);
  if (link.organization_id === null) return active.length > 0 ? link : null;
  // An existing account's invitation (src/accounts/invitations.ts): usable while the person is not a member there.
  if (link.invited_role) return memberships.some((m) => m.organization_id === link.organization_id) ? null : link;
  if (!active.some((m) => m.organization_id === link.organization_id)) return null;
  if (kind === 'password_reset' && !belongsOnlyTo(memberships, link.organization_id)) return null;
  return link;
}

/** True when every membership of the person, active or not, is in this organization. */
export const belongsOnlyTo = (memberships: { organization_id: string }[], organizationId: string): boolean =>
  memberships.every((m) => m.organization_id === organizationId);

/** Unknown, used, expired, revoked or of a deactivated person: one answer for all, so a probe learns nothing. */
export const linkNotUsable = () => new AppError('not_found', 'This link is unknown, already used or expired; ask for a new one');

/**
 * The link routes are throttled per client address, sharing sign-in's address count (src/accounts/throttle.ts): a
 * 256-bit secret cannot be guessed, but a client that keeps sending wrong ones is slowed down all the same.
 */
export const checkLinkThrottle = (ex: Executor, address: string): Promise<void> =>
  checkThrottle(ex, { account: `address:${address}`, address: `address:${address}` });
export const recordLinkFailure = (ex: Executor, address: string): Promise<void> => recordAddressFailure(ex, `address:${address}`);

/**
 * Sends a link's mail; true when the SMTP server took it. A failure is logged without the message (it holds the
 * link) and reported as false: the link itself is already stored and returned to whoever asked.
 */
export async function sendLinkMail(deps: Pick<LinkDeps, 'mailer' | 'log'>, mail: OutgoingMail, linkId: string): Promise<boolean> {
  if (!deps.mailer.enabled) return false;
  try {
    return await deps.mailer.send(mail);
  } catch (err) {
    deps.log.warn(
      { link_id: linkId, err: { message: (err as Error).message, code: (err as { code?: unknown }).code } },
      'a link could not be mailed',
    );
    return false;
  }
}
