import { createHash, randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import { systemActor } from '../shared/actor.js';
import type { Config } from '../shared/config.js';
import type { Db } from '../shared/db/database.js';
import type { OrganizationSsoTable } from '../shared/db/schema.js';
import { nowIso } from '../shared/time.js';
import * as repo from './repository.js';
import { createUser } from './service.js';
import { authorizationUrl, exchangeCode, type ProviderIdentity, providerConfiguration, randomValues } from './sso-client.js';
import * as ssoRepo from './sso-repository.js';
import type { SsoStartQuery } from './sso-schemas.js';
import { callbackUrl, parseDomains, ssoSettingsFor } from './sso-settings.js';

// The single sign-on flow (docs/auth.md, Single sign-on): start remembers state, nonce and the PKCE verifier in a
// row that only this browser's cookie names; the callback consumes that row, has openid-client check the answer,
// and finds the user: by the provider's subject already linked in this organization, else by verified e-mail
// among the organization's members, else creates them when the e-mail's domain is allowed.

export const SSO_FLOW_COOKIE = 'labstock_sso';
export const FLOW_TTL_MS = 10 * 60_000;

export type SsoRefusalCode =
  | 'sso_unavailable'
  | 'sso_flow_missing'
  | 'sso_state_mismatch'
  | 'sso_provider_error'
  | 'sso_code_rejected'
  | 'sso_email_unverified'
  | 'sso_domain_not_allowed'
  | 'sso_account_deactivated'
  | 'sso_start_cross_site';

/** A refused sign-in: the browser is sent back to the sign-in page with `error=<code>` (docs/errors.md). */
export class SsoRefusal extends Error {
  constructor(
    readonly code: SsoRefusalCode,
    message: string,
  ) {
    super(message);
    this.name = 'SsoRefusal';
  }
}

const hashFlow = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

/** A path on this server, never another origin: `/app/…`, not `//evil.example` nor `/\evil.example`. */
export const isSafeReturnTo = (path: string): boolean => /^\/(?![/\\])[\w\-./~%?=&#:@!$'()*+,;]*$/.test(path);

type FlowConfig = Pick<Config, 'appUrl' | 'ssoAllowedCidrs'>;

const provider = (settings: OrganizationSsoTable, config: FlowConfig) =>
  providerConfiguration(
    { issuer: settings.issuer, clientId: settings.client_id, clientSecret: settings.client_secret },
    config.ssoAllowedCidrs,
  ).catch((error: unknown) => {
    throw new SsoRefusal('sso_provider_error', `The OpenID provider's discovery failed: ${(error as Error).message}`);
  });

/** GET /auth/sso/start: the provider's authorization URL and the value of the flow cookie. */
export async function startSso(db: Db, config: FlowConfig, query: SsoStartQuery) {
  const settings = await ssoSettingsFor(db, { organizationId: query.organization, email: query.email });
  if (!settings) throw new SsoRefusal('sso_unavailable', 'No enabled single sign-on for that organization or e-mail domain');
  const oidc = await provider(settings, config);
  const values = randomValues();
  const secret = randomBytes(32).toString('base64url');
  const now = Date.now();
  await ssoRepo.deleteExpiredFlows(db, new Date(now).toISOString());
  await ssoRepo.insertFlow(db, {
    id_hash: hashFlow(secret),
    organization_id: settings.organization_id,
    state: values.state,
    nonce: values.nonce,
    code_verifier: values.codeVerifier,
    return_to: query.return_to ?? null,
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + FLOW_TTL_MS).toISOString(),
  });
  const url = await authorizationUrl(oidc, { redirectUri: callbackUrl(config.appUrl), ...values });
  return { url, secret };
}

/** GET /auth/sso/callback: who signed in, in which organization, and where to go; or an SsoRefusal. */
export async function finishSso(db: Db, config: FlowConfig, flowSecret: string | undefined, query: Record<string, string>) {
  const flow = flowSecret ? await ssoRepo.takeFlow(db, hashFlow(flowSecret)) : undefined;
  if (!flow || Date.parse(flow.expires_at) <= Date.now()) {
    throw new SsoRefusal('sso_flow_missing', 'No sign-in was started in this browser, or it took longer than 10 minutes');
  }
  // The settings as sign-in uses them: allowed_domains holds only the verified domains (src/accounts/sso-settings.ts).
  const settings = await ssoSettingsFor(db, { organizationId: flow.organization_id });
  if (!settings) throw new SsoRefusal('sso_unavailable', 'Single sign-on was turned off during the sign-in');
  if (query.error) throw new SsoRefusal('sso_provider_error', `The OpenID provider answered ${query.error.slice(0, 100)}`);
  // openid-client checks the state too; checked first here so a foreign code is never sent to the provider.
  if (query.state !== flow.state) throw new SsoRefusal('sso_state_mismatch', 'The state does not match the sign-in this browser started');
  const oidc = await provider(settings, config);
  const url = new URL(callbackUrl(config.appUrl));
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  let identity: ProviderIdentity;
  try {
    identity = await exchangeCode(oidc, url, { state: flow.state, nonce: flow.nonce, codeVerifier: flow.code_verifier });
  } catch (error) {
    if (error instanceof client.ResponseBodyError && error.error === 'invalid_grant') {
      throw new SsoRefusal('sso_code_rejected', 'The provider refused the code: used before, expired, or not issued for this sign-in');
    }
    throw new SsoRefusal('sso_provider_error', `The provider's answer was refused: ${(error as Error).message}`);
  }
  const userId = await userFor(db, settings, identity);
  return { userId, organizationId: settings.organization_id, returnTo: flow.return_to };
}

async function activeMember(db: Db, organizationId: string, userId: string): Promise<boolean> {
  const membership = await repo.findOrgMembership(db, organizationId, userId);
  if (!membership) return false;
  if (membership.deactivated_at) throw new SsoRefusal('sso_account_deactivated', 'The account is deactivated in this organization');
  return true;
}

async function userFor(db: Db, settings: OrganizationSsoTable, identity: ProviderIdentity): Promise<string> {
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
  // The first sign-in of this subject: matched, or created, by an e-mail address the provider has verified.
  if (!identity.email || !identity.emailVerified) {
    throw new SsoRefusal('sso_email_unverified', 'The provider did not state a verified e-mail address');
  }
  const existing = await repo.findUserByEmail(db, identity.email);
  let userId = existing?.id;
  if (!existing || !(await activeMember(db, key.organization_id, existing.id))) {
    const domain = identity.email.split('@')[1] ?? '';
    if (!parseDomains(settings.allowed_domains).includes(domain)) {
      throw new SsoRefusal('sso_domain_not_allowed', `No account here, and ${domain} is not among the domains that get one`);
    }
    const created = await createUser(db, systemActor('server'), {
      organizationId: key.organization_id,
      email: identity.email,
      firstName: identity.givenName ?? identity.email.split('@')[0]!,
      lastName: identity.familyName ?? '-',
      role: 'member',
    });
    userId = created.id;
  }
  await ssoRepo.insertIdentity(db, { ...key, user_id: userId!, created_at: now, last_sign_in_at: now });
  return userId!;
}
