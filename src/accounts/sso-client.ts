import * as client from 'openid-client';
import { Agent, fetch as undiciFetch } from 'undici';
import { BlockedAddressError, type Cidr, guardedLookup, literalTargetProblem, parseCidrs } from '../delivery/ssrf.js';

// The relying party's side of OpenID Connect (openid-client v6), for src/accounts/sso.ts. Every request to a
// provider (discovery, keys, token, userinfo) goes through a fetch whose connections may only reach public
// addresses, or the ranges of SSO_ALLOWED_CIDRS, checked on the address actually connected to (the same guard as
// webhook deliveries, src/delivery/ssrf.ts). Discovery documents are cached per issuer for a few minutes. The ID
// token's signature is verified against the provider's published keys.

export interface ProviderSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

const DISCOVERY_TTL_MS = 5 * 60_000;
const TIMEOUT_S = 10;
const discovered = new Map<string, { server: client.ServerMetadata; at: number }>();
const fetchers = new Map<string, client.CustomFetch>();

function guardedFetch(allowedCidrs: string[]): client.CustomFetch {
  const key = allowedCidrs.join(',');
  let found = fetchers.get(key);
  if (!found) {
    const allowed: Cidr[] = parseCidrs(allowedCidrs);
    const agent = new Agent({ connect: { lookup: guardedLookup(allowed), timeout: TIMEOUT_S * 1000 } });
    found = (url, options) => {
      // A literal address is connected to without any lookup, so the lookup's guard never sees it: checked here.
      const problem = literalTargetProblem(url, allowed);
      if (problem) return Promise.reject(new BlockedAddressError(problem));
      return undiciFetch(url, {
        method: options.method,
        headers: options.headers,
        body: options.body as never,
        redirect: 'manual',
        signal: options.signal,
        dispatcher: agent,
      }) as unknown as Promise<Response>;
    };
    fetchers.set(key, found);
  }
  return found;
}

const isHttp = (issuer: string) => new URL(issuer).protocol === 'http:';

/** The client for one organization's provider: discovery (cached), the client's credentials, the guarded fetch. */
export async function providerConfiguration(settings: ProviderSettings, allowedCidrs: string[], now = Date.now()) {
  const customFetch = guardedFetch(allowedCidrs);
  const cacheKey = `${settings.issuer}\n${allowedCidrs.join(',')}`;
  let entry = discovered.get(cacheKey);
  if (!entry || now - entry.at > DISCOVERY_TTL_MS) {
    const found = await client.discovery(new URL(settings.issuer), settings.clientId, undefined, client.None(), {
      [client.customFetch]: customFetch,
      timeout: TIMEOUT_S,
      // http is accepted for loopback issuers only (checked when the settings are saved, src/accounts/sso-settings.ts).
      execute: isHttp(settings.issuer) ? [client.allowInsecureRequests] : [],
    });
    entry = { server: found.serverMetadata(), at: now };
    discovered.set(cacheKey, entry);
  }
  // client_secret_basic unless the provider supports only client_secret_post (OpenID Connect's default is basic).
  const methods = entry.server.token_endpoint_auth_methods_supported;
  const auth =
    methods && !methods.includes('client_secret_basic') && methods.includes('client_secret_post')
      ? client.ClientSecretPost(settings.clientSecret)
      : client.ClientSecretBasic(settings.clientSecret);
  const config = new client.Configuration(entry.server, settings.clientId, undefined, auth);
  config[client.customFetch] = customFetch;
  config.timeout = TIMEOUT_S;
  if (isHttp(settings.issuer)) client.allowInsecureRequests(config);
  // openid-client checks the ID token's claims but, by default, not its signature when it comes straight from the
  // token endpoint: this fetches the provider's JWKS (jwks_uri, through the guarded fetch) and verifies it. The
  // keys are fetched once per sign-in (a new Configuration each time), so a rotated key is seen at once.
  client.enableNonRepudiationChecks(config);
  return config;
}

/** Drops the cached discovery of an issuer (its settings changed). */
export function forgetProvider(issuer: string): void {
  for (const key of discovered.keys()) if (key.startsWith(`${issuer}\n`)) discovered.delete(key);
}

export const randomValues = () => ({
  state: client.randomState(),
  nonce: client.randomNonce(),
  codeVerifier: client.randomPKCECodeVerifier(),
});

export async function authorizationUrl(
  config: client.Configuration,
  input: { redirectUri: string; state: string; nonce: string; codeVerifier: string },
): Promise<URL> {
  return client.buildAuthorizationUrl(config, {
    redirect_uri: input.redirectUri,
    scope: 'openid email profile',
    state: input.state,
    nonce: input.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(input.codeVerifier),
    code_challenge_method: 'S256',
  });
}

export interface ProviderIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  givenName: string | null;
  familyName: string | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);

/**
 * Exchanges the code (state, nonce and the PKCE verifier checked by openid-client) and reads who signed in, from
 * the ID token and userinfo. Throws openid-client's errors as they are; the caller turns them into a refusal.
 */
export async function exchangeCode(
  config: client.Configuration,
  callbackUrl: URL,
  checks: { state: string; nonce: string; codeVerifier: string },
): Promise<ProviderIdentity> {
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    expectedState: checks.state,
    expectedNonce: checks.nonce,
    pkceCodeVerifier: checks.codeVerifier,
    idTokenExpected: true,
  });
  const idClaims = tokens.claims()!;
  // Userinfo is asked for the subject of the ID token (openid-client refuses an answer about anyone else).
  const info = config.serverMetadata().userinfo_endpoint ? await client.fetchUserInfo(config, tokens.access_token, idClaims.sub) : {};
  const claims: Record<string, unknown> = { ...idClaims, ...info };
  return {
    subject: idClaims.sub,
    email: text(claims.email)?.toLowerCase() ?? null,
    // Only the boolean true counts: a missing claim or the string "true" is not a verified address.
    emailVerified: claims.email_verified === true,
    givenName: text(claims.given_name),
    familyName: text(claims.family_name),
  };
}
