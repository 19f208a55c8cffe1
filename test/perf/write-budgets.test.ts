import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CountedApp, startCountedApp } from '../helpers/db-counter.js';
import { type Harness, startHarness } from '../helpers/harness.js';
import { expectDocumentsFresh } from '../helpers/stored-documents.js';

// Statements of the write integrations send most, counted like the list budgets (query-budgets.test.ts) on a
// second app over the same data (issue 15: PUT of an instance's quantity in at most 8, BEGIN and COMMIT included;
// 9 since issue 26: one more keeps the control-area totals true, src/hazards/holdings-repository.ts).
// Authentication is left out: it is the same for every request and counted on its own (the auth cache's tests).
// Timings are never asserted here; bench/ measures them.

const PUT_INSTANCE_BUDGET = 9;

let h: Harness;
let counted: CountedApp;
let countedApp: FastifyInstance;
let statements: string[] = [];

beforeAll(async () => {
  h = await startHarness();
  counted = await startCountedApp(h, (sql) => statements.push(sql));
  countedApp = counted.app;
});

afterAll(async () => {
  await counted?.close();
  await h?.close();
});

/** The request's statements from its transaction's BEGIN to its COMMIT (authentication runs before it). */
async function put(url: string, payload: object): Promise<string[]> {
  statements = [];
  const res = await countedApp.inject({ method: 'PUT', url, headers: { 'access-token': h.a.admin.token }, payload });
  expect(res.statusCode, res.body).toBe(200);
  const begin = statements.findIndex((s) => /^begin/i.test(s));
  const commit = statements.findIndex((s) => /^commit/i.test(s));
  expect(begin, statements.join('\n')).toBeGreaterThanOrEqual(0);
  expect(commit, statements.join('\n')).toBeGreaterThan(begin);
  return statements.slice(begin, commit + 1);
}

describe('PUT /inventory-items/{itemId}/instances/{itemInstanceId}', () => {
  it(`runs at most ${PUT_INSTANCE_BUDGET} statements, its event's deliveries included, and leaves the document fresh`, async () => {
    // Two webhooks that take the event: its deliveries are part of the write.
    for (const i of [1, 2]) {
      const res = await h.call(h.a.admin.token, {
        method: 'POST',
        url: '/webhooks',
        payload: { organization_id: h.a.orgId, url: `https://hooks.example.org/${i}` },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const itemId = h.a.migratedLab.itemId;
    const [instanceId] = h.a.migratedLab.instanceIds;
    const before = await h.deps.db.selectFrom('webhook_deliveries').select('id').execute();
    const ran = await put(`/inventory-items/${itemId}/instances/${instanceId}`, { quantity: '12.5' });
    expect(ran.length, ran.join('\n')).toBeLessThanOrEqual(PUT_INSTANCE_BUDGET);
    // The change, its history, its event and both deliveries are all there.
    const after = await h.deps.db.selectFrom('webhook_deliveries').select('id').execute();
    expect(after.length - before.length).toBe(2);
    const item = (await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${itemId}` })).json();
    expect(item.instances.find((i: { id: string }) => i.id === instanceId).quantity).toBe('12.5');
    const history = (await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items/${itemId}/history` })).json();
    expect(history.at(-1)).toMatchObject({ field: 'instance.quantity', new_value: '12.5' });
    await expectDocumentsFresh(h);
  });

  it('without a webhook, one statement fewer (no deliveries to write)', async () => {
    await h.deps.db.updateTable('webhooks').set({ is_enabled: 0 }).execute();
    const [, instanceId] = h.a.migratedLab.instanceIds;
    const ran = await put(`/inventory-items/${h.a.migratedLab.itemId}/instances/${instanceId}`, { quantity: '3' });
    expect(ran.length, ran.join('\n')).toBeLessThanOrEqual(PUT_INSTANCE_BUDGET - 1);
    await expectDocumentsFresh(h);
  });
});
