import { describe, expect, it } from 'vitest';
import { expectValidation } from '../../helpers/errors.js';
import { adminSummary, memberSummary } from '../../helpers/shapes.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

describe('PUT /user (security)', () => {
  it('changes only the caller: no body field or query names another user, of this organization or another', async () => {
    expectValidation(await h.call(h.a.member.token, { method: 'PUT', url: '/user', payload: { id: h.b.admin.id, first_name: 'X' } }), 'id');
    const res = await h.call(h.a.member.token, {
      method: 'PUT',
      url: `/user?id=${h.b.admin.id}&user_id=${h.a.admin.id}`,
      payload: { first_name: 'Self' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().id).toBe(h.a.member.id);
    expect((await h.call(h.a.admin.token, { method: 'GET', url: '/user' })).json()).toEqual(adminSummary(h.a, 'A'));
    expect((await h.call(h.b.admin.token, { method: 'GET', url: '/user' })).json()).toEqual(adminSummary(h.b, 'B'));
    expect((await h.call(h.b.member.token, { method: 'GET', url: '/user' })).json()).toEqual(memberSummary(h.b, 'B'));
  });

  it('the e-mail address cannot be changed this way (it is how people sign in and are matched by SSO)', async () => {
    expectValidation(await h.call(h.b.member.token, { method: 'PUT', url: '/user', payload: { email: 'admin-b@example.org' } }), 'email');
    expect((await h.call(h.b.member.token, { method: 'GET', url: '/user' })).json().email).toBe('member-b@example.org');
  });

  it('a name is stored as text, never interpreted: markup comes back exactly as sent', async () => {
    const markup = '<img src=x onerror=alert(1)>';
    const res = await h.call(h.b.outsider.token, { method: 'PUT', url: '/user', payload: { first_name: markup } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().first_name).toBe(markup);
  });
});
