import { describe, expect, it } from 'vitest';
import { systemActor } from '../../../src/shared/actor.js';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { expireLinks, NEW_PASSWORD, secretOf, waitForResetLinks } from '../../helpers/links.js';
import { givePassword } from '../../helpers/sessions.js';
import { useHarness } from '../../helpers/use-harness.js';

// Resets refused (docs/auth.md): reuse, expiry, weak passwords, repeated requests, bad input, members.

const h = useHarness({}, async (h) => {
  await givePassword(h, h.a.admin.id);
});

const complete = (payload: Record<string, unknown>) => h.app.inject({ method: 'POST', url: '/auth/password-reset/complete', payload });
const adminLink = async (userId: string) => {
  const res = await h.call(h.a.admin.token, { method: 'POST', url: `/organization/users/${userId}/password-reset` });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json().mailed).toBe(false);
  return secretOf(res.json().url);
};

describe('reset links', () => {
  it('cannot be used twice', async () => {
    const token = await adminLink(h.a.member.id);
    expect((await complete({ token, password: NEW_PASSWORD })).statusCode).toBe(204);
    expectError(await complete({ token, password: 'yet another passphrase 9' }), 404, 'not_found');
  });

  it('cannot be used after expiry', async () => {
    const token = await adminLink(h.a.outsider.id);
    await expireLinks(h, h.a.outsider.id);
    expectError(await complete({ token, password: NEW_PASSWORD }), 404, 'not_found');
  });

  it('an invitation link is no reset link, nor the other way round', async () => {
    const invited = await h.call(h.a.admin.token, { method: 'POST', url: '/organization/users', payload: { email: 'kai@example.org' } });
    expectError(await complete({ token: secretOf(invited.json().invitation.url), password: NEW_PASSWORD }), 404, 'not_found');
    const token = await adminLink(invited.json().id);
    expectError(await h.app.inject({ method: 'GET', url: `/auth/invitations/${token}` }), 404, 'not_found');
  });

  it('a weak password is 422 and leaves the link usable', async () => {
    const token = await adminLink(h.a.member.id);
    expectValidation(await complete({ token, password: 'aaaaaaaaaaaaaaaa' }), 'password');
    expectValidation(await complete({ token, password: 'member-a@example.org' }), 'password');
    expectValidation(await complete({ token }), 'password');
    expect((await complete({ token, password: NEW_PASSWORD })).statusCode).toBe(204);
  });

  it('a second request within a minute makes no second link', async () => {
    const ask = () => h.app.inject({ method: 'POST', url: '/auth/password-reset', payload: { email: 'admin-A@example.org' } });
    expect((await ask()).statusCode).toBe(202);
    expect(await waitForResetLinks(h, h.a.admin.id, 1)).toHaveLength(1);
    expect((await ask()).statusCode).toBe(202);
    await new Promise((r) => setTimeout(r, 300));
    expect(await waitForResetLinks(h, h.a.admin.id, 2, 0)).toHaveLength(1);
  });

  it('bad bodies are 422 naming the field', async () => {
    expectValidation(await h.app.inject({ method: 'POST', url: '/auth/password-reset', payload: {} }), 'email');
    expectValidation(await h.app.inject({ method: 'POST', url: '/auth/password-reset', payload: { email: 'a@b.example', x: 1 } }), 'x');
    expectValidation(await complete({ password: NEW_PASSWORD }), 'token');
  });
});

describe('admin reset links', () => {
  it('members are 403, deactivated users 409, people of other organizations too 409', async () => {
    expectError(
      await h.call(h.a.member.token, { method: 'POST', url: `/organization/users/${h.a.outsider.id}/password-reset` }),
      403,
      'forbidden',
    );
    const { createUser } = await import('../../../src/accounts/service.js');
    await createUser(h.deps.db, systemActor('cli'), {
      organizationId: h.b.orgId,
      email: 'outsider-A@example.org',
      firstName: 'Olga',
      lastName: 'OutsiderA',
    });
    const both = await h.call(h.a.admin.token, { method: 'POST', url: `/organization/users/${h.a.outsider.id}/password-reset` });
    expectError(both, 409, 'conflict');
    const invited = await h.call(h.a.admin.token, { method: 'POST', url: '/organization/users', payload: { email: 'lena@example.org' } });
    await h.call(h.a.admin.token, { method: 'PUT', url: `/organization/users/${invited.json().id}`, payload: { active: false } });
    expectError(
      await h.call(h.a.admin.token, { method: 'POST', url: `/organization/users/${invited.json().id}/password-reset` }),
      409,
      'conflict',
    );
  });
});
