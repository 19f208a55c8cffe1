import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/shared/config.js';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { configureSso, type SsoWorld, startSsoWorld } from './_helpers.js';

let w: SsoWorld;
beforeAll(async () => {
  w = await startSsoWorld();
});
afterAll(() => w?.close());

const put = (payload: Record<string, unknown>) =>
  w.h.call(w.h.a.admin.token, {
    method: 'PUT',
    url: '/organization/sso',
    payload: {
      issuer: w.op.issuer,
      client_id: w.op.clientId,
      client_secret: 's3cret-value',
      allowed_domains: [],
      enabled: true,
      ...payload,
    },
  });

describe('/organization/sso (errors)', () => {
  it('GET and DELETE answer 404 while nothing is set', async () => {
    expectError(await w.h.call(w.h.a.admin.token, { method: 'GET', url: '/organization/sso' }), 404, 'not_found');
    expectError(await w.h.call(w.h.a.admin.token, { method: 'DELETE', url: '/organization/sso' }), 404, 'not_found');
  });

  it('the first PUT needs a client secret', async () => {
    const { client_secret: _s, ...rest } = { client_secret: '', issuer: w.op.issuer, client_id: 'x', allowed_domains: [], enabled: true };
    expectValidation(await w.h.call(w.h.a.admin.token, { method: 'PUT', url: '/organization/sso', payload: rest }), 'client_secret');
    expectError(await w.h.call(w.h.a.admin.token, { method: 'GET', url: '/organization/sso' }), 404, 'not_found');
  });

  it('refuses issuers that are not https (http only on this machine), carry credentials, a query or a fragment', async () => {
    for (const issuer of [
      'ftp://idp.example',
      'file:///etc/passwd',
      'http://idp.example',
      'not a url',
      'https://user:pw@idp.example',
      'https://idp.example/?x=1',
      'https://idp.example/#f',
      'javascript:alert(1)',
    ]) {
      expectValidation(await put({ issuer }), 'issuer');
    }
  });

  it('refuses an issuer at a private, link-local or loopback address unless SSO_ALLOWED_CIDRS opens it', async () => {
    for (const issuer of ['https://10.0.0.5', 'https://169.254.169.254', 'https://[::1]', 'https://192.168.1.1/realms/x']) {
      expectValidation(await put({ issuer }), 'issuer');
    }
    const closed = await startSsoWorldWithout();
    try {
      const res = await closed.h.call(closed.h.a.admin.token, {
        method: 'PUT',
        url: '/organization/sso',
        payload: { issuer: closed.op.issuer, client_id: 'c', client_secret: 's', allowed_domains: [], enabled: true },
      });
      const body = expectValidation(res, 'issuer');
      expect(body.message).toContain('SSO_ALLOWED_CIDRS');
      expectValidation(
        await closed.h.call(closed.h.a.admin.token, {
          method: 'PUT',
          url: '/organization/sso',
          payload: { issuer: 'http://localhost:8080', client_id: 'c', client_secret: 's', allowed_domains: [], enabled: true },
        }),
        'issuer',
      );
    } finally {
      await closed.close();
    }
  });

  it('refuses malformed domains, naming each', async () => {
    const body = expectValidation(
      await put({ allowed_domains: ['lab.example', 'no spaces.example', 'x@y.example', 'localhost'] }),
      'allowed_domains[1]',
    );
    expect(body.errors.map((e: { field: string }) => e.field)).toEqual(['allowed_domains[1]', 'allowed_domains[2]', 'allowed_domains[3]']);
  });

  it('refuses unknown fields, missing fields, an empty client_id and an empty client_secret', async () => {
    expectValidation(await put({ extra: 1 }), 'extra');
    expectValidation(
      await w.h.call(w.h.a.admin.token, { method: 'PUT', url: '/organization/sso', payload: { issuer: w.op.issuer } }),
      'client_id',
    );
    expectValidation(await put({ client_id: '   ' }), 'client_id');
    await configureSso(w);
    expectValidation(await put({ client_secret: '  ' }), 'client_secret');
    expectValidation(await put({ enabled: 'yes' }), 'enabled');
  });
});

describe('SSO_ALLOWED_CIDRS', () => {
  it('is checked at start like WEBHOOK_ALLOWED_CIDRS: a value that is not a range stops the process, naming it', () => {
    expect(() => loadConfig({ SSO_ALLOWED_CIDRS: '10.0.0.0/8,intranet' })).toThrow(/SSO_ALLOWED_CIDRS: "intranet" is not a CIDR range/);
    expect(loadConfig({ SSO_ALLOWED_CIDRS: ' 10.0.0.0/8 , ::1/128 ' }).ssoAllowedCidrs).toEqual(['10.0.0.0/8', '::1/128']);
    expect(loadConfig({}).ssoAllowedCidrs).toEqual([]);
  });
});

async function startSsoWorldWithout() {
  return startSsoWorld({ SSO_ALLOWED_CIDRS: '' });
}
