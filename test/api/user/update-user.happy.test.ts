import { describe, expect, it } from 'vitest';
import { givePassword, signIn, withSession } from '../../helpers/sessions.js';
import { expectUserShape, memberSummary } from '../../helpers/shapes.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const put = (token: string, payload: Record<string, unknown>) => h.call(token, { method: 'PUT', url: '/user', payload });

describe('PUT /user (happy)', () => {
  it("changes the caller's first and last name, trimmed, and GET /user shows them", async () => {
    const res = await put(h.a.member.token, { first_name: '  Maxine ', last_name: 'Muster ' });
    expect(res.statusCode, res.body).toBe(200);
    expectUserShape(res.json());
    expect(res.json()).toEqual({ ...memberSummary(h.a, 'A'), first_name: 'Maxine', last_name: 'Muster' });
    const after = await h.call(h.a.member.token, { method: 'GET', url: '/user' });
    expect(after.json()).toEqual(res.json());
  });

  it('one name alone leaves the other as it was', async () => {
    const before = (await h.call(h.a.admin.token, { method: 'GET', url: '/user' })).json();
    const res = await put(h.a.admin.token, { last_name: 'Renamed' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ...before, last_name: 'Renamed' });
    const first = await put(h.a.admin.token, { first_name: 'Ada' });
    expect(first.json()).toEqual({ ...before, first_name: 'Ada', last_name: 'Renamed' });
  });

  it('works with the session cookie and its CSRF token, and the session shows the new name', async () => {
    await givePassword(h, h.b.member.id);
    const session = await signIn(h, 'member-b@example.org');
    const res = await withSession(h, session, { method: 'PUT', url: '/user', payload: { first_name: 'Bea' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().first_name).toBe('Bea');
    const now = await withSession(h, session, { method: 'GET', url: '/auth/session' });
    expect(now.json().user.first_name).toBe('Bea');
  });

  it('accepts names of 100 characters and non-Latin letters', async () => {
    const long = 'é'.repeat(100);
    const res = await put(h.a.outsider.token, { first_name: long, last_name: 'Ōkubo' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ first_name: long, last_name: 'Ōkubo' });
  });
});
