import { describe, expect, it } from 'vitest';
import { upsertOrgMembership } from '../../../src/accounts/repository.js';
import { givePassword, PASSWORD, type Session, signIn, withSession } from '../../helpers/sessions.js';
import { useHarness } from '../../helpers/use-harness.js';

// Issue 22, item 1: a session acts in one organization. What it changes of the person who also belongs to another
// organization is limited to its own (sessions, the digest) or needs the person's own password (the name), so a
// session someone else's organization obtained cannot sign her out of hers, rename her, or silence her digest.

let inA: Session;
let inB: Session;
const h = useHarness({}, async (h) => {
  await upsertOrgMembership(h.deps.db, h.b.orgId, h.a.member.id, 'member', new Date().toISOString());
  await givePassword(h, h.a.member.id);
});

const signInTo = (orgId: string) => signIn(h, 'member-a@example.org', PASSWORD, { organization_id: orgId });

describe('a person in two organizations, acted on from one of them (security)', () => {
  it('sign-out-everywhere ends her sessions in this organization only', async () => {
    inA = await signInTo(h.a.orgId);
    inB = await signInTo(h.b.orgId);
    const otherB = await signInTo(h.b.orgId);
    const res = await withSession(h, inB, { method: 'POST', url: '/auth/sign-out-everywhere' });
    expect(res.statusCode, res.body).toBe(204);
    expect((await withSession(h, inB, { method: 'GET', url: '/user' })).statusCode).toBe(401);
    expect((await withSession(h, otherB, { method: 'GET', url: '/user' })).statusCode).toBe(401);
    expect((await withSession(h, inA, { method: 'GET', url: '/user' })).statusCode).toBe(200);
  });

  it('turning the digest off in one organization leaves it on in the other', async () => {
    inB = await signInTo(h.b.orgId);
    const off = await withSession(h, inB, { method: 'PUT', url: '/user/notifications', payload: { email_digest: false } });
    expect(off.statusCode, off.body).toBe(200);
    expect((await withSession(h, inB, { method: 'GET', url: '/user/notifications' })).json()).toEqual({ email_digest: false });
    expect((await withSession(h, inA, { method: 'GET', url: '/user/notifications' })).json()).toEqual({ email_digest: true });
  });

  it('her name changes only with her own password while she belongs to more than one organization', async () => {
    const bare = await withSession(h, inB, { method: 'PUT', url: '/user', payload: { first_name: 'Mallory' } });
    expect(bare.statusCode, bare.body).toBe(422);
    expect(bare.json().errors).toEqual([expect.objectContaining({ field: 'current_password' })]);
    const wrong = await withSession(h, inB, {
      method: 'PUT',
      url: '/user',
      payload: { first_name: 'Mallory', current_password: 'not it at all' },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual([{ field: 'current_password', message: 'is wrong' }]);
    expect((await withSession(h, inA, { method: 'GET', url: '/user' })).json().first_name).toBe('Max');
    const right = await withSession(h, inB, { method: 'PUT', url: '/user', payload: { first_name: 'Maxi', current_password: PASSWORD } });
    expect(right.statusCode, right.body).toBe(200);
    expect((await withSession(h, inA, { method: 'GET', url: '/user' })).json().first_name).toBe('Maxi');
    // A person in one organization only changes it as before.
    const single = await h.call(h.a.admin.token, { method: 'PUT', url: '/user', payload: { first_name: 'Ada' } });
    expect(single.statusCode, single.body).toBe(200);
  });
});
