import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../../src/accounts/service.js';
import { createOperator, createOperatorToken } from '../../src/operators/service.js';
import { systemActor } from '../../src/shared/actor.js';
import { type CountedApp, startCountedApp } from '../helpers/db-counter.js';
import { type Harness, startHarness } from '../helpers/harness.js';
import { givePassword, PASSWORD, sessionCookieOf } from '../helpers/sessions.js';

// Issue 15, authentication in one step: with a warm cache (src/accounts/auth-cache.ts) a request runs no statement
// to authenticate, whether it brings a token, the session cookie or an operator token; cold, exactly one (the
// lookup; the once-a-minute touch is a second only when due). Counted with openDatabase's onQuery hook on a second
// handle that a second app uses, as test/perf/query-budgets.test.ts does. Timings are never asserted here.

let h: Harness;
let counted: CountedApp;
let app: FastifyInstance;
let statements: string[] = [];

async function run(headers: Record<string, string>, url: string): Promise<string[]> {
  statements = [];
  const res = await app.inject({ method: 'GET', url, headers });
  expect(res.statusCode, res.body).toBe(200);
  return statements;
}

beforeAll(async () => {
  h = await startHarness();
  counted = await startCountedApp(h, (sql) => statements.push(sql));
  app = counted.app;
});
afterAll(async () => {
  await counted?.close();
  await h?.close();
});

describe('statements a request runs to authenticate', () => {
  it('a token: one lookup and its first touch the first time, nothing the second', async () => {
    // A token never used: its first request writes last_used_at too.
    const { token } = await createToken(h.deps.db, systemActor('cli'), { userId: h.a.member.id, organizationId: h.a.orgId });
    const headers = { 'access-token': token };
    const cold = await run(headers, '/user');
    const warm = await run(headers, '/user');
    expect(
      cold.filter((s) => /"access_tokens"/.test(s)),
      cold.join('\n'),
    ).toHaveLength(2);
    // Warm, the page's own statement is all there is.
    expect(warm, warm.join('\n')).toHaveLength(1);
    expect(warm[0]).toMatch(/^select .* from "users" where "id" in/);
    expect(cold.length - warm.length).toBe(2);
  });

  it('the session cookie: one lookup the first time, nothing the second', async () => {
    await givePassword(h, h.a.admin.id);
    const res = await app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: h.a.admin.email, password: PASSWORD } });
    expect(res.statusCode, res.body).toBe(200);
    const headers = { cookie: `labstock_session=${sessionCookieOf(res)}` };
    const cold = await run(headers, '/user');
    const warm = await run(headers, '/user');
    expect(
      cold.filter((s) => /from "sessions"/.test(s)),
      cold.join('\n'),
    ).toHaveLength(1);
    expect(
      warm.filter((s) => /"sessions"|"org_memberships"/.test(s)),
      warm.join('\n'),
    ).toEqual([]);
    expect(cold.length - warm.length).toBe(1);
  });

  it('an operator token: one lookup and its first touch the first time, nothing the second', async () => {
    const op = await createOperator(h.deps.db, systemActor('cli'), { email: 'budget-op@example.org', firstName: 'Op', lastName: 'Budget' });
    const { token } = await createOperatorToken(h.deps.db, systemActor('cli'), { operator: op.id });
    const headers = { 'access-token': token };
    const cold = await run(headers, '/shop/order-items');
    const warm = await run(headers, '/shop/order-items');
    expect(
      cold.filter((s) => /"operator_tokens"/.test(s)),
      cold.join('\n'),
    ).toHaveLength(2);
    expect(
      warm.filter((s) => /"operator_tokens"|"operators"/.test(s)),
      warm.join('\n'),
    ).toEqual([]);
    expect(cold.length - warm.length).toBe(2);
  });
});
