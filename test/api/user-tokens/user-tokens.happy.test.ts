import { describe, expect, it } from 'vitest';
import { givePassword, signIn, withSession } from '../../helpers/sessions.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness({}, async (h) => {
  await givePassword(h, h.a.member.id);
});

describe('GET/POST/DELETE /user/tokens (happy)', () => {
  it('creates a token shown once, which then authenticates and is listed without its secret', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const res = await h.call(h.a.member.token, { method: 'POST', url: '/user/tokens', payload: { name: 'laptop', expires_at: expiresAt } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const created = res.json();
    expect(Object.keys(created).sort()).toEqual(['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'token']);
    expect(created).toMatchObject({ name: 'laptop', expires_at: expiresAt, last_used_at: null });
    expect(created.token).toMatch(/^lst_[\w-]{43}$/);

    const me = await h.call(created.token, { method: 'GET', url: '/user' });
    expect(me.json().id).toBe(h.a.member.id);

    const list = await h.call(h.a.member.token, { method: 'GET', url: '/user/tokens' });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.token);
    expect(list.headers['x-total-count']).toBe('2');
    const mine = list.json().find((t: { id: string }) => t.id === created.id);
    expect(Object.keys(mine).sort()).toEqual(['created_at', 'expires_at', 'id', 'last_used_at', 'name']);
    expect(mine.last_used_at).not.toBeNull();
    expect(list.json().map((t: { name: string }) => t.name)).toEqual(['member', 'laptop']);
  });

  it('a signed-in user manages tokens with the session (the web application’s settings page)', async () => {
    const s = await signIn(h, 'member-A@example.org');
    const created = await withSession(h, s, { method: 'POST', url: '/user/tokens', payload: { name: 'from the browser' } });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().expires_at).toBeNull();
    const del = await withSession(h, s, { method: 'DELETE', url: `/user/tokens/${created.json().id}` });
    expect(del.statusCode).toBe(204);
    expect((await h.call(created.json().token, { method: 'GET', url: '/user' })).statusCode).toBe(401);
  });

  it('DELETE revokes: the token stops working and leaves the list', async () => {
    const created = (await h.call(h.a.member.token, { method: 'POST', url: '/user/tokens', payload: { name: 'old' } })).json();
    const res = await h.call(h.a.member.token, { method: 'DELETE', url: `/user/tokens/${created.id}` });
    expect(res.statusCode).toBe(204);
    expect((await h.call(created.token, { method: 'GET', url: '/user' })).statusCode).toBe(401);
    const ids = (await h.call(h.a.member.token, { method: 'GET', url: '/user/tokens' })).json().map((t: { id: string }) => t.id);
    expect(ids).not.toContain(created.id);
  });

  it('a token past its expires_at stops working and leaves the list', async () => {
    const created = (
      await h.call(h.a.member.token, {
        method: 'POST',
        url: '/user/tokens',
        payload: { name: 'brief', expires_at: new Date(Date.now() + 1200).toISOString() },
      })
    ).json();
    expect((await h.call(created.token, { method: 'GET', url: '/user' })).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 1300));
    expect((await h.call(created.token, { method: 'GET', url: '/user' })).statusCode).toBe(401);
    const ids = (await h.call(h.a.member.token, { method: 'GET', url: '/user/tokens' })).json().map((t: { id: string }) => t.id);
    expect(ids).not.toContain(created.id);
  });

  it('last_used_at is written at most once a minute per token', async () => {
    const created = (await h.call(h.a.member.token, { method: 'POST', url: '/user/tokens', payload: { name: 'busy' } })).json();
    const usedAt = async () =>
      (await h.deps.db.selectFrom('access_tokens').select('last_used_at').where('id', '=', created.id).executeTakeFirstOrThrow())
        .last_used_at;
    await h.call(created.token, { method: 'GET', url: '/user' });
    const first = await usedAt();
    expect(first).not.toBeNull();
    for (let i = 0; i < 3; i++) await h.call(created.token, { method: 'GET', url: '/user' });
    expect(await usedAt()).toBe(first);
    // Older than a minute: the next use writes again.
    const old = new Date(Date.now() - 61_000).toISOString();
    await h.deps.db.updateTable('access_tokens').set({ last_used_at: old }).where('id', '=', created.id).execute();
    await h.call(created.token, { method: 'GET', url: '/user' });
    expect(await usedAt()).not.toBe(old);
  });
});

describe('GET/DELETE /organization/tokens (happy)', () => {
  it('an org admin lists every live token of the organization with its user, and revokes any of them', async () => {
    const list = await h.call(h.a.admin.token, { method: 'GET', url: '/organization/tokens?per_page=100' });
    expect(list.statusCode).toBe(200);
    const rows = list.json();
    expect(rows.every((t: { token?: string }) => t.token === undefined)).toBe(true);
    const memberToken = rows.find((t: { name: string }) => t.name === 'member');
    expect(memberToken.user).toEqual({ id: h.a.member.id, first_name: 'Max', last_name: 'MemberA', email: 'member-a@example.org' });
    const outsider = rows.find((t: { name: string }) => t.name === 'outsider');
    const res = await h.call(h.a.admin.token, { method: 'DELETE', url: `/organization/tokens/${outsider.id}` });
    expect(res.statusCode).toBe(204);
    expect((await h.call(h.a.outsider.token, { method: 'GET', url: '/user' })).statusCode).toBe(401);
  });
});
