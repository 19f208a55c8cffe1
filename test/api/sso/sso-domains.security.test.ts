import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configureSso, person, SIGN_IN_ERROR, type SsoWorld, ssoSignIn, start, startSsoWorld } from './_helpers.js';

// Issue 22, item 2: an e-mail domain signs people in by SSO (and creates their accounts) only for the one
// organization that claimed it and proved it: a DNS TXT record, or the installation operator's approval.
let w: SsoWorld;
beforeAll(async () => {
  w = await startSsoWorld();
});
afterAll(() => w?.close());

const put = (token: string, allowed_domains: string[]) =>
  w.h.call(token, {
    method: 'PUT',
    url: '/organization/sso',
    payload: { issuer: w.op.issuer, client_id: w.op.clientId, client_secret: w.op.clientSecret, allowed_domains, enabled: true },
  });
const domains = (token: string) => w.h.call(token, { method: 'GET', url: '/organization/sso/domains' });
const verify = (token: string, domain: string) => w.h.call(token, { method: 'POST', url: `/organization/sso/domains/${domain}/verify` });

describe('SSO domains (security)', () => {
  it('a domain another organization claimed is refused (409, naming the field); its people never go to the newcomer', async () => {
    expect((await put(w.h.a.admin.token, ['claimed.example'])).statusCode).toBe(200);
    const taken = await put(w.h.b.admin.token, ['free-b.example', 'claimed.example']);
    expect(taken.statusCode, taken.body).toBe(409);
    expect(taken.json().code).toBe('conflict');
    expect(taken.json().errors).toEqual([{ field: 'allowed_domains[1]', message: expect.stringContaining('claimed.example') }]);
    // Nothing changed for B: no settings were stored.
    expect((await w.h.call(w.h.b.admin.token, { method: 'GET', url: '/organization/sso' })).statusCode).toBe(404);
    // Upper case or a leading @ is the same domain.
    expect((await put(w.h.b.admin.token, ['@Claimed.Example'])).statusCode).toBe(409);
  });

  it('a claimed but unverified domain is stored and shown with its TXT record, but neither routes e-mail nor creates accounts', async () => {
    await configureSso(w, { allowed_domains: ['pending.example'] }, w.h.a.admin.token, { verify: false });
    const listed = await domains(w.h.a.admin.token);
    expect(listed.statusCode, listed.body).toBe(200);
    const [row] = listed.json();
    expect(row).toEqual({
      domain: 'pending.example',
      status: 'pending',
      verified_at: null,
      verified_by: null,
      txt_name: '_labstock-verification.pending.example',
      txt_value: expect.stringMatching(/^labstock-domain-verification=[\w-]{32,}$/),
    });
    // By e-mail: no organization has verified the domain.
    const byEmail = await start(w, 'email=newcomer@pending.example');
    expect(byEmail.location).toBe(`${SIGN_IN_ERROR}sso_unavailable`);
    // By organization: the provider vouches for the address, but the domain creates no account yet.
    const jit = await ssoSignIn(w, person('pending-1', 'newcomer@pending.example'));
    expect(jit.headers.location).toBe(`${SIGN_IN_ERROR}sso_domain_not_allowed`);
    // Verifying without the record: refused, still pending.
    const early = await verify(w.h.a.admin.token, 'pending.example');
    expect(early.statusCode, early.body).toBe(422);
    expect(early.json().code).toBe('domain_not_verified');
    expect(early.json().message).toContain('_labstock-verification.pending.example');
    expect((await domains(w.h.a.admin.token)).json()[0].status).toBe('pending');
    // Someone else's record value does not count either.
    w.dns.txt(row.txt_name, 'labstock-domain-verification=not-the-token-of-this-claim-0000000000');
    expect((await verify(w.h.a.admin.token, 'pending.example')).statusCode).toBe(422);
    // The record published: verified by DNS, and from then on the domain works.
    w.dns.txt(row.txt_name, row.txt_value);
    const done = await verify(w.h.a.admin.token, 'pending.example');
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ domain: 'pending.example', status: 'verified', verified_by: 'dns' });
    expect(done.json().verified_at).toMatch(/^\d{4}-/);
    expect(new URL((await start(w, 'email=newcomer@pending.example')).location).origin).toBe(w.op.issuer);
    const created = await ssoSignIn(w, person('pending-2', 'newcomer@pending.example'));
    expect(created.headers.location).toBe('http://labstock.test/app/');
  });

  it('only org admins see and verify domains, and only their own organization’s', async () => {
    expect((await domains(w.h.a.member.token)).statusCode).toBe(403);
    expect((await verify(w.h.a.member.token, 'pending.example')).statusCode).toBe(403);
    // B has no such claim: 404, and A's claim is untouched.
    expect((await verify(w.h.b.admin.token, 'pending.example')).statusCode).toBe(404);
  });

  it('a domain dropped from allowed_domains is released: another organization may claim it (and must verify it anew)', async () => {
    await configureSso(w, { allowed_domains: ['moving.example'] }, w.h.a.admin.token);
    expect((await put(w.h.b.admin.token, ['moving.example'])).statusCode).toBe(409);
    await configureSso(w, { allowed_domains: [] }, w.h.a.admin.token);
    expect((await put(w.h.b.admin.token, ['moving.example'])).statusCode).toBe(200);
    expect((await domains(w.h.b.admin.token)).json()).toMatchObject([{ domain: 'moving.example', status: 'pending' }]);
    expect((await start(w, 'email=someone@moving.example')).location).toBe(`${SIGN_IN_ERROR}sso_unavailable`);
    expect((await w.h.call(w.h.b.admin.token, { method: 'DELETE', url: '/organization/sso' })).statusCode).toBe(204);
  });

  it('two organizations claiming the same domain at once: one gets it, the other 409 (never 500)', async () => {
    const [a, b] = await Promise.all([put(w.h.a.admin.token, ['race.example']), put(w.h.b.admin.token, ['race.example'])]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    await w.h.call(w.h.b.admin.token, { method: 'DELETE', url: '/organization/sso' });
  });
});
