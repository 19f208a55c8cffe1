import { describe, expect, it } from 'vitest';
import { createToken } from '../../../src/accounts/service.js';
import { systemActor } from '../../../src/shared/actor.js';
import { givePassword, signIn, withSession } from '../../helpers/sessions.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness({}, async (h) => {
  for (const u of [h.a.admin, h.a.member]) await givePassword(h, u.id);
});

describe('/organization/users (happy)', () => {
  it('lists every member of the organization with role and status', async () => {
    const res = await h.call(h.a.admin.token, { method: 'GET', url: '/organization/users' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('3');
    expect(res.json().map((u: { email: string; role: string; deactivated_at: null }) => [u.email, u.role, u.deactivated_at])).toEqual([
      ['admin-a@example.org', 'admin', null],
      ['member-a@example.org', 'member', null],
      ['outsider-a@example.org', 'member', null],
    ]);
  });

  it('changes a role: the promoted member’s token and session see every lab at once', async () => {
    const s = await signIn(h, 'member-A@example.org');
    const before = (await h.call(h.a.member.token, { method: 'GET', url: '/labs' })).json().length;
    const res = await h.call(h.a.admin.token, { method: 'PUT', url: `/organization/users/${h.a.member.id}`, payload: { role: 'admin' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: h.a.member.id, role: 'admin', deactivated_at: null });
    expect((await h.call(h.a.member.token, { method: 'GET', url: '/labs' })).json().length).toBe(before + 1);
    expect((await withSession(h, s, { method: 'GET', url: '/labs' })).json().length).toBe(before + 1);
    expect((await withSession(h, s, { method: 'GET', url: '/auth/session' })).json().organization.role).toBe('admin');
    await h.call(h.a.admin.token, { method: 'PUT', url: `/organization/users/${h.a.member.id}`, payload: { role: 'member' } });
    expect((await h.call(h.a.member.token, { method: 'GET', url: '/labs' })).json().length).toBe(before);
  });

  it('deactivating a user: their token and session get 401 on the very next request; reactivation needs new credentials', async () => {
    const s = await signIn(h, 'member-A@example.org');
    expect((await withSession(h, s, { method: 'GET', url: '/user' })).statusCode).toBe(200);
    const admin = await signIn(h, 'admin-A@example.org');
    const res = await withSession(h, admin, { method: 'PUT', url: `/organization/users/${h.a.member.id}`, payload: { active: false } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().deactivated_at).not.toBeNull();
    expect((await h.call(h.a.member.token, { method: 'GET', url: '/user' })).statusCode).toBe(401);
    expect((await withSession(h, s, { method: 'GET', url: '/user' })).statusCode).toBe(401);
    const again = await h.app.inject({
      method: 'POST',
      url: '/auth/sign-in',
      payload: { email: 'member-A@example.org', password: 'correct horse battery staple' },
    });
    expect(again.statusCode).toBe(401);

    const back = await h.call(h.a.admin.token, { method: 'PUT', url: `/organization/users/${h.a.member.id}`, payload: { active: true } });
    expect(back.json().deactivated_at).toBeNull();
    expect((await h.call(h.a.member.token, { method: 'GET', url: '/user' })).statusCode).toBe(401);
    const fresh = await signIn(h, 'member-A@example.org');
    expect((await withSession(h, fresh, { method: 'GET', url: '/user' })).statusCode).toBe(200);
  });
});

describe('/organization/labs (happy)', () => {
  it('creates, renames, archives and restores a lab', async () => {
    const created = await h.call(h.a.admin.token, { method: 'POST', url: '/organization/labs', payload: { name: ' Cell culture ' } });
    expect(created.statusCode, created.body).toBe(201);
    const lab = created.json();
    expect(lab).toMatchObject({ name: 'Cell culture', uses_instances: false, archived_at: null });
    expect((await h.call(h.a.admin.token, { method: 'GET', url: `/labs/${lab.id}` })).json().name).toBe('Cell culture');

    const renamed = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/organization/labs/${lab.id}`,
      payload: { name: 'Tissue culture' },
    });
    expect(renamed.json().name).toBe('Tissue culture');

    const archived = await h.call(h.a.admin.token, { method: 'PUT', url: `/organization/labs/${lab.id}`, payload: { archived: true } });
    expect(archived.json().archived_at).not.toBeNull();
    const listed = (await h.call(h.a.admin.token, { method: 'GET', url: '/labs?per_page=100' })).json().map((l: { id: string }) => l.id);
    expect(listed).not.toContain(lab.id);
    expect((await h.call(h.a.admin.token, { method: 'GET', url: `/labs/${lab.id}` })).statusCode).toBe(200);
    const all = (await h.call(h.a.admin.token, { method: 'GET', url: '/organization/labs' })).json();
    expect(all.find((l: { id: string }) => l.id === lab.id).archived_at).not.toBeNull();

    await h.call(h.a.admin.token, { method: 'PUT', url: `/organization/labs/${lab.id}`, payload: { archived: false } });
    const back = (await h.call(h.a.admin.token, { method: 'GET', url: '/labs?per_page=100' })).json().map((l: { id: string }) => l.id);
    expect(back).toContain(lab.id);
  });

  it('adds and removes lab members, which decides what a member sees', async () => {
    const labId = h.a.otherLab.id;
    // The member's fixture token was revoked by the deactivation above.
    const { token } = await createToken(h.deps.db, systemActor('cli'), { userId: h.a.member.id, organizationId: h.a.orgId });
    const seen = async () => (await h.call(token, { method: 'GET', url: '/labs?per_page=100' })).json().map((l: { id: string }) => l.id);
    expect(await seen()).not.toContain(labId);
    const added = await h.call(h.a.admin.token, {
      method: 'POST',
      url: `/organization/labs/${labId}/members`,
      payload: { user_id: h.a.member.id },
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().map((m: { id: string }) => m.id)).toEqual([h.a.member.id]);
    const twice = await h.call(h.a.admin.token, {
      method: 'POST',
      url: `/organization/labs/${labId}/members`,
      payload: { user_id: h.a.member.id },
    });
    expect(twice.statusCode).toBe(200);
    expect(await seen()).toContain(labId);
    const members = await h.call(h.a.admin.token, { method: 'GET', url: `/organization/labs/${labId}/members` });
    expect(members.json()[0]).toMatchObject({ id: h.a.member.id, email: 'member-a@example.org' });
    const removed = await h.call(h.a.admin.token, { method: 'DELETE', url: `/organization/labs/${labId}/members/${h.a.member.id}` });
    expect(removed.statusCode).toBe(204);
    expect(await seen()).not.toContain(labId);
  });
});
