import { describe, expect, it } from 'vitest';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

describe('organization administration (errors)', () => {
  it('members are refused (403) every administration route of their own organization', async () => {
    const t = h.a.member.token;
    const calls = [
      { method: 'GET', url: '/organization/users' },
      { method: 'PUT', url: `/organization/users/${h.a.outsider.id}`, payload: { role: 'admin' } },
      { method: 'GET', url: '/organization/labs' },
      { method: 'POST', url: '/organization/labs', payload: { name: 'Mine' } },
      { method: 'PUT', url: `/organization/labs/${h.a.legacyLab.id}`, payload: { name: 'Mine' } },
      { method: 'GET', url: `/organization/labs/${h.a.legacyLab.id}/members` },
      { method: 'POST', url: `/organization/labs/${h.a.otherLab.id}/members`, payload: { user_id: h.a.member.id } },
      { method: 'DELETE', url: `/organization/labs/${h.a.legacyLab.id}/members/${h.a.member.id}` },
    ] as const;
    for (const c of calls) expectError(await h.call(t, c), 403, 'forbidden');
    expect((await h.call(h.a.member.token, { method: 'GET', url: '/labs' })).json()).toHaveLength(2);
  });

  it('the last active admin can be neither demoted nor deactivated (409)', async () => {
    expectError(
      await h.call(h.a.admin.token, { method: 'PUT', url: `/organization/users/${h.a.admin.id}`, payload: { role: 'member' } }),
      409,
      'conflict',
    );
    expectError(
      await h.call(h.a.admin.token, { method: 'PUT', url: `/organization/users/${h.a.admin.id}`, payload: { active: false } }),
      409,
      'conflict',
    );
    expect((await h.call(h.a.admin.token, { method: 'GET', url: '/organization/users' })).statusCode).toBe(200);
  });

  it('422 for empty and unknown fields', async () => {
    const put = (url: string, payload: object) => h.call(h.a.admin.token, { method: 'PUT', url, payload });
    expect((await put(`/organization/users/${h.a.member.id}`, {})).statusCode).toBe(422);
    expectValidation(await put(`/organization/users/${h.a.member.id}`, { role: 'owner' }), 'role');
    expectValidation(await put(`/organization/users/${h.a.member.id}`, { email: 'x@example.org' }), 'email');
    expectValidation(await put(`/organization/labs/${h.a.legacyLab.id}`, { name: '   ' }), 'name');
    expectValidation(await h.call(h.a.admin.token, { method: 'POST', url: '/organization/labs', payload: {} }), 'name');
    expectValidation(
      await h.call(h.a.admin.token, { method: 'POST', url: `/organization/labs/${h.a.legacyLab.id}/members`, payload: { user_id: 'x' } }),
      'user_id',
    );
  });

  it('404 for unknown users, labs and memberships', async () => {
    const unknown = crypto.randomUUID();
    expectError(await h.call(h.a.admin.token, { method: 'PUT', url: `/organization/users/${unknown}`, payload: { role: 'admin' } }), 404);
    expectError(await h.call(h.a.admin.token, { method: 'PUT', url: `/organization/labs/${unknown}`, payload: { name: 'x' } }), 404);
    expectError(
      await h.call(h.a.admin.token, {
        method: 'POST',
        url: `/organization/labs/${h.a.otherLab.id}/members`,
        payload: { user_id: unknown },
      }),
      404,
    );
    expectError(
      await h.call(h.a.admin.token, { method: 'DELETE', url: `/organization/labs/${h.a.otherLab.id}/members/${h.a.member.id}` }),
      404,
    );
  });
});
