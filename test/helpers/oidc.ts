import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

// A real OpenID Connect provider (oidc-provider) in this process, for the SSO tests. Its one twist: the login and
// consent screens are skipped. Whoever reaches /interaction signs in as `provider.signInAs` (set by the test), so a
// test drives the whole authorization-code flow with plain HTTP, or a browser with no form to fill.

export interface OidcUser {
  sub: string;
  email: string;
  email_verified: boolean;
  given_name?: string;
  family_name?: string;
}

export interface TestOidc {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The account the next sign-in at the provider becomes. */
  signInAs: OidcUser;
  /**
   * Follows an authorization URL through the provider (its redirects and the skipped interaction) to the redirect
   * back to the relying party, and returns that URL (with `code` and `state`, or `error`).
   */
  authorize(authorizationUrl: string): Promise<URL>;
  /**
   * When true, the provider's JWKS (GET /jwks) publishes another key under the same key id, so the ID tokens it
   * signs do not verify against its published keys: a forged or tampered token, as a relying party sees it.
   */
  publishForeignKeys: boolean;
  /** How many times the JWKS was fetched. */
  readonly jwksFetches: number;
  close(): Promise<void>;
}

export async function startOidc(options: { redirectUris: string[]; clientId?: string; clientSecret?: string }): Promise<TestOidc> {
  let handler: http.RequestListener = (_req, res) => res.writeHead(503).end();
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = options.clientId ?? 'labstock-test';
  const clientSecret = options.clientSecret ?? 'labstock-test-secret-0123456789abcdef';

  const foreignKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'jwk' });
  const state: { signInAs: OidcUser; publishForeignKeys: boolean; jwksFetches: number } = {
    publishForeignKeys: false,
    jwksFetches: 0,
    signInAs: { sub: 'user-1', email: 'someone@lab.example', email_verified: true, given_name: 'Some', family_name: 'One' },
  };
  const accounts = new Map<string, OidcUser>();

  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    scopes: ['openid', 'email', 'profile'],
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    jwks: {
      keys: [
        {
          ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
          kid: 'test',
          use: 'sig',
          alg: 'RS256',
        },
      ] as never,
    },
    cookies: { keys: ['labstock-test-cookie-key-0123456789'] },
    async findAccount(_ctx, id) {
      const user = accounts.get(id);
      if (!user) return undefined;
      return { accountId: id, claims: async () => ({ ...user }) };
    },
  };
  const provider = new Provider(issuer, configuration);
  const callback = provider.callback();

  handler = (req, res) => {
    if (req.url === '/jwks') state.jwksFetches++;
    if (req.url === '/jwks' && state.publishForeignKeys) {
      res.writeHead(200, { 'content-type': 'application/jwk-set+json' });
      res.end(JSON.stringify({ keys: [{ ...foreignKey, kid: 'test', use: 'sig', alg: 'RS256' }] }));
      return;
    }
    if (!req.url?.startsWith('/interaction/')) {
      callback(req, res);
      return;
    }
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const user = state.signInAs;
      accounts.set(user.sub, user);
      const grant = details.grantId
        ? ((await provider.Grant.find(details.grantId)) ?? new provider.Grant({ accountId: user.sub, clientId }))
        : new provider.Grant({ accountId: user.sub, clientId });
      const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
      grant.addOIDCScope((missing.missingOIDCScope ?? ['openid', 'email', 'profile']).join(' '));
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: user.sub }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    })().catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    });
  };

  return {
    issuer,
    clientId,
    clientSecret,
    get signInAs() {
      return state.signInAs;
    },
    set signInAs(user: OidcUser) {
      state.signInAs = user;
    },
    get publishForeignKeys() {
      return state.publishForeignKeys;
    },
    set publishForeignKeys(value: boolean) {
      state.publishForeignKeys = value;
    },
    get jwksFetches() {
      return state.jwksFetches;
    },
    async authorize(authorizationUrl) {
      const jar = new Map<string, string>();
      let url = new URL(authorizationUrl);
      for (let hop = 0; hop < 10; hop++) {
        if (url.origin !== issuer) return url;
        const res = await fetch(url, {
          redirect: 'manual',
          headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
        });
        for (const line of res.headers.getSetCookie()) {
          const [pair] = line.split(';');
          const eq = pair!.indexOf('=');
          jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
        }
        const location = res.headers.get('location');
        if (!location) throw new Error(`the provider answered ${res.status} without a redirect at ${url.pathname}: ${await res.text()}`);
        url = new URL(location, url);
      }
      throw new Error('too many redirects at the OpenID provider');
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
