import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalFixture } from '../../helpers/approvals.js';
import { expectError } from '../../helpers/errors.js';
import { type Harness, startHarness } from '../../helpers/harness.js';

// Spend tracking codes and budget settings across tenants and roles: another organization's lab and a lab the member
// does not belong to are 404 (never data); only organization admins and the lab's managers create codes and change
// settings (403 for anyone else, approvers included).

let h: Harness;
let bCodeId: string;
let otherLabCodeId: string;
let ownCodeId: string;
beforeAll(async () => {
  h = await startHarness();
  const res = await h.call(h.b.admin.token, {
    method: 'POST',
    url: `/labs/${h.b.legacyLab.id}/spend-tracking-codes`,
    payload: { name: 'B-SECRET' },
  });
  expect(res.statusCode, res.body).toBe(201);
  bCodeId = res.json().id;
  const code = async (labId: string, name: string) => {
    const made = await h.call(h.a.admin.token, { method: 'POST', url: `/labs/${labId}/spend-tracking-codes`, payload: { name } });
    expect(made.statusCode, made.body).toBe(201);
    return made.json().id as string;
  };
  otherLabCodeId = await code(h.a.otherLab.id, 'A-OTHER');
  ownCodeId = await code(h.a.legacyLab.id, 'A-OWN');
});
afterAll(() => h?.close());

const state = async () => ({
  codes: await h.deps.db.selectFrom('spend_tracking_codes').selectAll().orderBy('id').execute(),
  settings: await h.deps.db.selectFrom('lab_spend_settings').selectAll().orderBy('lab_id').execute(),
});

const ops = (lab: string) =>
  [
    ['GET', `/labs/${lab}/spend-tracking-codes`, undefined],
    ['POST', `/labs/${lab}/spend-tracking-codes`, { name: 'X' }],
    ['GET', `/labs/${lab}/spend-settings`, undefined],
    ['PUT', `/labs/${lab}/spend-settings`, { over_budget: 'block' }],
  ] as const;

async function expectRefused(token: string | null, method: string, url: string, payload: unknown, status: number) {
  const before = await state();
  const res = await h.call(token, { method: method as 'GET', url, ...(payload ? { payload: payload as Record<string, unknown> } : {}) });
  expectError(res, status);
  expect(res.body).not.toContain('B-SECRET');
  expect(await state()).toEqual(before);
}

describe('spend tracking codes: security', () => {
  it("404 for organization B's lab with every organization A token, for every operation", async () => {
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token])
      for (const [method, url, payload] of ops(h.b.legacyLab.id)) await expectRefused(token, method, url, payload, 404);
  });

  it('404 for a lab the member does not belong to', async () => {
    for (const [method, url, payload] of ops(h.a.otherLab.id)) await expectRefused(h.a.member.token, method, url, payload, 404);
  });

  it('403 for a member creating a code or changing the setting of their own lab; reading is allowed', async () => {
    for (const [method, url, payload] of ops(h.a.legacyLab.id)) {
      if (method === 'GET') expect((await h.call(h.a.member.token, { method, url })).statusCode).toBe(200);
      else await expectRefused(h.a.member.token, method, url, payload, 403);
    }
  });

  it("PUT /spend-tracking-codes/{id}: 404 for B's code with every A token and for a code of a lab the member is not in; 403 for a member", async () => {
    const body = { budget: { amount: '1', currency: 'USD' } };
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token])
      await expectRefused(token, 'PUT', `/spend-tracking-codes/${bCodeId}`, body, 404);
    await expectRefused(h.a.member.token, 'PUT', `/spend-tracking-codes/${otherLabCodeId}`, body, 404);
    await expectRefused(h.a.member.token, 'PUT', `/spend-tracking-codes/${ownCodeId}`, body, 403);
    await expectRefused(null, 'PUT', `/spend-tracking-codes/${ownCodeId}`, body, 401);
  });

  it('401 without a token', async () => {
    for (const [method, url, payload] of ops(h.a.legacyLab.id)) await expectRefused(null, method, url, payload, 401);
  });
});

describe("the lab's managers", () => {
  it("a manager creates a code, sets its budget and the lab's setting; an approver of the same lab may not; a manager of no other lab", async () => {
    const f = await approvalFixture(h);
    const made = await h.call(f.manager.token, {
      method: 'POST',
      url: `/labs/${f.lab.id}/spend-tracking-codes`,
      payload: { name: 'MANAGED', period: 'month', budget: { amount: '100.00', currency: 'USD' } },
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().id as string;
    const put = await h.call(f.manager.token, { method: 'PUT', url: `/spend-tracking-codes/${id}`, payload: { budget: null } });
    expect(put.statusCode, put.body).toBe(200);
    const settings = await h.call(f.manager.token, {
      method: 'PUT',
      url: `/labs/${f.lab.id}/spend-settings`,
      payload: { over_budget: 'block' },
    });
    expect(settings.statusCode, settings.body).toBe(200);

    const byApprover = await h.call(f.approver.token, {
      method: 'POST',
      url: `/labs/${f.lab.id}/spend-tracking-codes`,
      payload: { name: 'NOPE' },
    });
    expectError(byApprover, 403, 'forbidden');
    expectError(
      await h.call(f.approver.token, { method: 'PUT', url: `/spend-tracking-codes/${id}`, payload: { budget: null } }),
      403,
      'forbidden',
    );
    // The manager of the legacy lab is nobody in the other lab: it is not theirs to see.
    const elsewhere = await h.call(f.manager.token, {
      method: 'POST',
      url: `/labs/${h.a.otherLab.id}/spend-tracking-codes`,
      payload: { name: 'NOPE' },
    });
    expectError(elsewhere, 404, 'not_found');
    expect(
      (await h.call(h.a.admin.token, { method: 'GET', url: `/labs/${f.lab.id}/spend-tracking-codes` }))
        .json()
        .map((c: { name: string }) => c.name),
    ).not.toContain('NOPE');
  });
});
