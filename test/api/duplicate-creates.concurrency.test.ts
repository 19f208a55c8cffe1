import { describe, expect, it } from 'vitest';
import { expectError } from '../helpers/errors.js';
import type { Harness } from '../helpers/harness.js';
import { useHarness } from '../helpers/use-harness.js';

// The same create sent many times at once (a double-clicked button, a client's retries): one wins, the others get
// the answer a later duplicate gets, never a 500. On PostgreSQL the requests' checks for an existing row run side by
// side, so the losers reach the unique index (docs/errors.md, conflict).

const h = useHarness();

const TIMES = 10;
const burst = (opts: Parameters<Harness['call']>[1]) => Promise.all(Array.from({ length: TIMES }, () => h.call(h.a.admin.token, opts)));
const statuses = (rs: { statusCode: number }[]) => rs.map((r) => r.statusCode).sort();

describe('parallel duplicate creates', () => {
  it('spend tracking codes: one 201, the others 409 conflict, one row', async () => {
    const url = `/labs/${h.a.legacyLab.id}/spend-tracking-codes`;
    const results = await burst({ method: 'POST', url, payload: { name: 'TWICE' } });
    expect(statuses(results)).toEqual([201, ...Array(TIMES - 1).fill(409)]);
    for (const r of results.filter((r) => r.statusCode !== 201)) expectError(r, 409, 'conflict');
    const list = (await h.call(h.a.admin.token, { method: 'GET', url })).json();
    expect(list.filter((c: { name: string }) => c.name === 'TWICE')).toHaveLength(1);
  });

  it('lab members: one 201, the others 200 as for someone already in the lab, one membership', async () => {
    const url = `/organization/labs/${h.a.otherLab.id}/members`;
    const results = await burst({ method: 'POST', url, payload: { user_id: h.a.outsider.id, role: 'approver' } });
    expect(statuses(results), results.map((r) => r.body).join('\n')).toEqual([...Array(TIMES - 1).fill(200), 201]);
    const members = (await h.call(h.a.admin.token, { method: 'GET', url })).json();
    expect(members.filter((m: { id: string }) => m.id === h.a.outsider.id)).toEqual([expect.objectContaining({ role: 'approver' })]);
  });

  it('invitations of one new e-mail: one 201, the others 409 conflict, one user', async () => {
    const results = await burst({ method: 'POST', url: '/organization/users', payload: { email: 'twice@example.org' } });
    expect(statuses(results), results.map((r) => r.body).join('\n')).toEqual([201, ...Array(TIMES - 1).fill(409)]);
    for (const r of results.filter((r) => r.statusCode !== 201)) expectError(r, 409, 'conflict');
    const users = await h.deps.db.selectFrom('users').select('id').where('email', '=', 'twice@example.org').execute();
    expect(users).toHaveLength(1);
  });
});
