import { describe, expect, it } from 'vitest';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { givePassword, signIn, withSession } from '../../helpers/sessions.js';
import { memberSummary } from '../../helpers/shapes.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const put = (token: string | null, payload: Record<string, unknown>) => h.call(token, { method: 'PUT', url: '/user', payload });
const unchanged = async () =>
  expect((await h.call(h.a.member.token, { method: 'GET', url: '/user' })).json()).toEqual(memberSummary(h.a, 'A'));

describe('PUT /user (errors)', () => {
  it('401 without a token or with an unknown one', async () => {
    expectError(await put(null, { first_name: 'X' }), 401, 'unauthorized');
    expectError(await put('lst_nope', { first_name: 'X' }), 401, 'unauthorized');
  });

  it('422 for an empty body, unknown fields, and fields that are not names', async () => {
    expectError(await put(h.a.member.token, {}), 422, 'validation_failed');
    expectValidation(await put(h.a.member.token, { first_name: 'X', email: 'new@example.org' }), 'email');
    expectValidation(await put(h.a.member.token, { first_name: '' }), 'first_name');
    expectValidation(await put(h.a.member.token, { last_name: 'x'.repeat(101) }), 'last_name');
    expectValidation(await put(h.a.member.token, { first_name: 7 }), 'first_name');
    await unchanged();
  });

  it('422 naming each name that is only spaces; nothing is changed', async () => {
    const body = expectValidation(await put(h.a.member.token, { first_name: '   ', last_name: ' ' }), 'first_name');
    expect(body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['first_name', 'last_name']);
    expectValidation(await put(h.a.member.token, { first_name: 'Fine', last_name: '  ' }), 'last_name');
    await unchanged();
  });

  it('403 csrf_failed with the session cookie but no CSRF token; nothing is changed', async () => {
    await givePassword(h, h.a.member.id);
    const session = await signIn(h, 'member-a@example.org');
    const res = await withSession(h, session, { method: 'PUT', url: '/user', payload: { first_name: 'Forged' } }, { csrf: false });
    expectError(res, 403, 'csrf_failed');
    await unchanged();
  });
});
