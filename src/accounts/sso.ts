import { createHash, randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import type { Actor } from '../shared/actor.js';
import type { Config } from '../shared/config.js';
import type { Db } from '../shared/db/database.js';
import type { OrganizationSsoTable, SsoFlowsTable } from '../shared/db/schema.js';
import { AppError } from '../shared/errors.js';
import { linkIdentity, userFor } from './sso-accounts.js';
import { authorizationUrl, exchangeCode, type ProviderIdentity, providerConfiguration, randomValues } from './sso-client.js';
import * as ssoRepo from './sso-repository.js';
import type { SsoStartQuery } from './sso-schemas.js';
import { callbackUrl, ssoSettingsFor } from './sso-settings.js';

// The single sign-on flow (docs/auth.md, Single sign-on): start remembers state, nonce and the PKCE verifier in a
// row that only this browser's cookie names; the callback consumes that row, has openid-client check the answer,
// and finds the user (src/accounts/sso-accounts.ts): by the provider's subject already linked in this organization,
// else creates them when no account has the verified e-mail and its domain is allowed. A link flow (started by a
// signed-in person, POST /auth/sso/link) links the subject to that person instead.

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
  | 'sso_start_cross_site'
  | 'sso_account_not_linked'
  | 'sso_link_session_missing'
  | 'sso_identity_in_use';

/** A refused sign-in: the browser is sent back to the sign-in page with `error=<code>` (docs/errors.md). */
export class SsoRefusal extends Error {
  /** Set for the refusal of a link flow: the browser goes back to the settings page, not to sign-in. */
  linking = false;
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
  return beginFlow(db, config, settings, query.return_to ?? null, null);
}

/** POST /auth/sso/link: as start, for the signed-in person to link their account (a session of `actor`). */
export async function startSsoLink(db: Db, config: FlowConfig, actor: Actor, returnTo: string | null) {
  const settings = await ssoRepo.findSsoSettings(db, actor.organizationId);
  if (settings?.enabled !== 1) throw new AppError('conflict', 'Single sign-on is not enabled in this organization');
  try {
    return await beginFlow(db, config, settings, returnTo, actor.userId);
  } catch (error) {
    if (error instanceof SsoRefusal) throw new AppError('service_unavailable', error.message);
    throw error;
  }
}

async function beginFlow(db: Db, config: FlowConfig, settings: OrganizationSsoTable, returnTo: string | null, linkUserId: string | null) {
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
    return_to: returnTo,
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + FLOW_TTL_MS).toISOString(),
    link_user_id: linkUserId,
  });
  const url = await authorizationUrl(oidc, { redirectUri: callbackUrl(config.appUrl), ...values });
  return { url, secret };
}

/**
 * GET /auth/sso/callback: who signed in, in which organization, and where to go; or an SsoRefusal. For a link flow,
 * `current` is the session the browser brought (it must be the one of the person who started it); `linked` is then
 * true and no new session is made.
 */
export async function finishSso(
  db: Db,
  config: FlowConfig,
  flowSecret: string | undefined,
  query: Record<string, string>,
  current: Current,
) {
  const flow = flowSecret ? await ssoRepo.takeFlow(db, hashFlow(flowSecret)) : undefined;
  if (!flow || Date.parse(flow.expires_at) <= Date.now()) {
    throw new SsoRefusal('sso_flow_missing', 'No sign-in was started in this browser, or it took longer than 10 minutes');
  }
  try {
    return await completeFlow(db, config, flow, query, current);
  } catch (error) {
    if (error instanceof SsoRefusal && flow.link_user_id) error.linking = true;
    throw error;
  }
}

type Current = () => Promise<{ userId: string; organizationId: string } | null>;

async function completeFlow(db: Db, config: FlowConfig, flow: SsoFlowsTable, query: Record<string, string>, current: Current) {
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
  if (flow.link_user_id) {
    const userId = await linkIdentity(db, settings, identity, flow.link_user_id, current);
    return { userId, organizationId: settings.organization_id, returnTo: flow.return_to, linked: true };
  }
  const userId = await userFor(db, settings, identity);
  return { userId, organizationId: settings.organization_id, returnTo: flow.return_to, linked: false };
}
