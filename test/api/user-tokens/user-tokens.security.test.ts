import { describe, expect, it } from 'vitest';
import { hashToken } from '../../../src/accounts/tokens.js';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const tokenIdsOf = async (token: string, url: string) =>
  (await h.call(token, { method: 'GET', url })).json().map((t: { id: string }) => t.id) as string[];

describe('/user/tokens and /organization/tokens (security)', () => {
  it('a user lists only their own tokens; an org admin only their organization’s', async () => {
    const bTokens = await tokenIdsOf(h.b.admin.token, '/organization/tokens');
    expect(bTokens.length).toBe(3);
    const aMine = await tokenIdsOf(h.a.member.token, '/user/tokens');
    const aOrg = await tokenIdsOf(h.a.admin.token, '/organization/tokens');
    expect(aMine).toHaveLength(1);
    for (const id of bTokens) {
      expect(aMine).not.toContain(id);
      expect(aOrg).not.toContain(id);
    }
    const adminOwn = await tokenIdsOf(h.a.admin.token, '/user/tokens');
    expect(adminOwn).toHaveLength(1);
  });

  it('another user’s or another organization’s token id is 404 and stays valid', async () => {
    const bTokens = await tokenIdsOf(h.b.admin.token, '/organization/tokens');
    const aTokens = await tokenIdsOf(h.a.admin.token, '/organization/tokens');
    for (const id of bTokens) {
      expectError(await h.call(h.a.admin.token, { method: 'DELETE', url: `/organization/tokens/${id}` }), 404, 'not_found');
      expectError(await h.call(h.a.member.token, { method: 'DELETE', url: `/organization/tokens/${id}` }), 404, 'not_found');
      expectError(await h.call(h.a.admin.token, { method: 'DELETE', url: `/user/tokens/${id}` }), 404, 'not_found');
    }
    // A colleague's token is not "mine" either, even for an org admin.
    const memberTokenId = (await tokenIdsOf(h.a.member.token, '/user/tokens'))[0]!;
    expect(aTokens).toContain(memberTokenId);
    expectError(await h.call(h.a.admin.token, { method: 'DELETE', url: `/user/tokens/${memberTokenId}` }), 404, 'not_found');
    for (const token of [h.b.admin.token, h.b.member.token, h.b.outsider.token, h.a.member.token]) {
      expect((await h.call(token, { method: 'GET', url: '/user' })).statusCode).toBe(200);
    }
  });

  it('a created token is stored only as its hash', async () => {
    const created = (await h.call(h.a.member.token, { method: 'POST', url: '/user/tokens', payload: { name: 'hashed' } })).json();
    const rows = await h.deps.db.selectFrom('access_tokens').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(created.token);
    expect(rows.find((r) => r.id === created.id)?.token_hash).toBe(hashToken(created.token));
  });

  it('a token is created in the caller’s organization for the caller, whatever the body says', async () => {
    const res = await h.call(h.a.member.token, {
      method: 'POST',
      url: '/user/tokens',
      payload: { name: 'sneaky', user_id: h.b.admin.id, organization_id: h.b.orgId },
    });
    expect(res.statusCode).toBe(422);
  });
});
