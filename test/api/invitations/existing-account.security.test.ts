import { describe, expect, it } from 'vitest';
import { invite, secretOf } from '../../helpers/links.js';
import { givePassword, PASSWORD } from '../../helpers/sessions.js';
import { useHarness } from '../../helpers/use-harness.js';

// Issue 22, item 9: inviting the e-mail of an account of another organization answers like inviting a new address
// (no id or name of that account) and makes nobody a member until the person accepts with their own password.

const h = useHarness({}, async (h) => {
  await givePassword(h, h.b.member.id);
});

const listA = async () => (await h.call(h.a.admin.token, { method: 'GET', url: '/organization/users?per_page=100' })).json();

describe('inviting an existing account of another organization (security)', () => {
  it('answers like a new address, leaks neither id nor name, and adds nobody until accepted', async () => {
    const fresh = await invite(h, 'brand-new@example.org', { first_name: 'Typed', last_name: 'Name' });
    const existing = await invite(h, 'member-B@example.org', { first_name: 'Typed', last_name: 'Name' });
    expect(Object.keys(existing).sort()).toEqual(Object.keys(fresh).sort());
    expect(existing).toMatchObject({ first_name: 'Typed', last_name: 'Name', email: 'member-b@example.org', role: 'member' });
    expect(existing.id).not.toBe(h.b.member.id);
    expect(JSON.stringify(existing)).not.toContain(h.b.member.id);
    expect(JSON.stringify(existing)).not.toContain('MemberB');
    expect(existing.invitation_expires_at).toBe(existing.invitation.expires_at);
    // Not a member of org A yet: no membership row, no sign-in there; listed as invited under the answer's id.
    const rows = await h.deps.db.selectFrom('org_memberships').select('organization_id').where('user_id', '=', h.b.member.id).execute();
    expect(rows.map((r) => r.organization_id)).toEqual([h.b.orgId]);
    const signIn = await h.app.inject({
      method: 'POST',
      url: '/auth/sign-in',
      payload: { email: 'member-b@example.org', password: PASSWORD, organization_id: h.a.orgId },
    });
    expect(signIn.statusCode).toBe(401);
    const pending = (await listA()).find((u: { email: string }) => u.email === 'member-b@example.org');
    expect(pending).toMatchObject({
      id: existing.id,
      invitation_expires_at: existing.invitation.expires_at,
      first_name: '',
      last_name: '',
    });
    // Invited again while pending: like a person already invited (409), and a new link is made by the same id.
    const twice = await h.call(h.a.admin.token, { method: 'POST', url: '/organization/users', payload: { email: 'member-b@example.org' } });
    expect(twice.statusCode).toBe(409);
    const again = await h.call(h.a.admin.token, { method: 'POST', url: `/organization/users/${existing.id}/invitation` });
    expect(again.statusCode, again.body).toBe(201);
    // She accepts with her own password: now a member of org A, listed under her account, no longer invited.
    const secret = secretOf(again.json().url);
    const look = await h.app.inject({ method: 'GET', url: `/auth/invitations/${secret}` });
    expect(look.json()).toMatchObject({ email: 'member-b@example.org', organization: { id: h.a.orgId }, existing_account: true });
    const res = await h.app.inject({ method: 'POST', url: '/auth/invitations/accept', payload: { token: secret, password: PASSWORD } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().organization).toMatchObject({ id: h.a.orgId, role: 'member' });
    expect(res.json().user.first_name).toBe('Max');
    const after = (await listA()).filter((u: { email: string }) => u.email === 'member-b@example.org');
    expect(after).toEqual([expect.objectContaining({ id: h.b.member.id, invitation_expires_at: null })]);
  });
});
