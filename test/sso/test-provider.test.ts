import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidc, type TestOidc } from '../helpers/oidc.js';

// The test OpenID provider works with openid-client as Labstock's SSO uses it: discovery, authorization code with
// PKCE, the ID token and userinfo. Tests of Labstock's own SSO routes build on this helper.

const REDIRECT = 'http://127.0.0.1:9/auth/sso/callback';

describe('the test OpenID provider', () => {
  let op: TestOidc;
  let config: client.Configuration;
  beforeAll(async () => {
    op = await startOidc({ redirectUris: [REDIRECT] });
    config = await client.discovery(new URL(op.issuer), op.clientId, op.clientSecret, undefined, {
      execute: [client.allowInsecureRequests],
    });
  });
  afterAll(async () => {
    await op.close();
  });

  async function signIn(scope = 'openid email profile') {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope,
      state,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const back = await op.authorize(url.href);
    return { back, verifier, state };
  }

  it('signs in the configured user: code, tokens, verified email from userinfo', async () => {
    op.signInAs = { sub: 'ana-1', email: 'ana@lab.example', email_verified: true, given_name: 'Ana' };
    const { back, verifier, state } = await signIn();
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('code')).toBeTruthy();
    const tokens = await client.authorizationCodeGrant(config, back, { pkceCodeVerifier: verifier, expectedState: state });
    const sub = tokens.claims()!.sub;
    expect(sub).toBe('ana-1');
    const info = await client.fetchUserInfo(config, tokens.access_token, sub);
    expect(info).toMatchObject({ sub: 'ana-1', email: 'ana@lab.example', email_verified: true });
  });

  it('reports an unverified email as such', async () => {
    op.signInAs = { sub: 'bo-1', email: 'bo@lab.example', email_verified: false };
    const { back, verifier, state } = await signIn();
    const tokens = await client.authorizationCodeGrant(config, back, { pkceCodeVerifier: verifier, expectedState: state });
    const info = await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
    expect(info.email_verified).toBe(false);
  });

  it('refuses a code used twice and a wrong state', async () => {
    op.signInAs = { sub: 'cy-1', email: 'cy@lab.example', email_verified: true };
    const first = await signIn();
    await client.authorizationCodeGrant(config, first.back, { pkceCodeVerifier: first.verifier, expectedState: first.state });
    await expect(
      client.authorizationCodeGrant(config, first.back, { pkceCodeVerifier: first.verifier, expectedState: first.state }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
    const second = await signIn();
    await expect(
      client.authorizationCodeGrant(config, second.back, { pkceCodeVerifier: second.verifier, expectedState: 'not-the-state' }),
    ).rejects.toMatchObject({ code: 'OAUTH_INVALID_RESPONSE', cause: { message: expect.stringMatching(/state/) } });
  });
});
