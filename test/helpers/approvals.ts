// The approval tests' fixture (test/api/approvals/ and test/mail/; no tests in here): org A's legacy lab with a
// requester (the fixture's member), an approver, a manager and a plain member, their roles set through the
// memberships API by the org admin.
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { createToken, createUser } from '../../src/accounts/service.js';
import { systemActor } from '../../src/shared/actor.js';
import type { Harness } from './harness.js';
import { createOrder, orderBody } from './orders.js';
import { useHarness } from './use-harness.js';

export interface Person {
  id: string;
  token: string;
}

export interface ApprovalFixture {
  lab: { id: string; typeId: string };
  requester: Person;
  approver: Person;
  manager: Person;
  plain: Person;
  admin: Person;
  /** Org B's admin: sees none of it. */
  stranger: Person;
}

let seq = 0;
export async function newPerson(h: Harness, organizationId: string, name: string): Promise<Person> {
  seq += 1;
  const user = await createUser(h.deps.db, systemActor('cli'), {
    organizationId,
    email: `${name}-${seq}-${organizationId.slice(0, 8)}@example.org`,
    firstName: name,
    lastName: `Person${seq}`,
    role: 'member',
  });
  const { token } = await createToken(h.deps.db, systemActor('cli'), { userId: user.id, organizationId, name });
  return { id: user.id, token };
}

export const addMember = (h: Harness, token: string, labId: string, userId: string, role?: string): Promise<LightMyRequestResponse> =>
  h.call(token, {
    method: 'POST',
    url: `/organization/labs/${labId}/members`,
    payload: role === undefined ? { user_id: userId } : { user_id: userId, role },
  });

export const setRole = (h: Harness, token: string, labId: string, userId: string, role: string): Promise<LightMyRequestResponse> =>
  h.call(token, { method: 'PUT', url: `/organization/labs/${labId}/members/${userId}`, payload: { role } });

export async function approvalFixture(h: Harness): Promise<ApprovalFixture> {
  const lab = h.a.legacyLab;
  const admin = { id: h.a.admin.id, token: h.a.admin.token };
  const approver = await newPerson(h, h.a.orgId, 'Approver');
  const manager = await newPerson(h, h.a.orgId, 'Manager');
  const plain = await newPerson(h, h.a.orgId, 'Plain');
  for (const [p, role] of [
    [approver, 'approver'],
    [manager, 'manager'],
    [plain, undefined],
  ] as const) {
    const res = await addMember(h, admin.token, lab.id, p.id, role);
    expect(res.statusCode, res.body).toBe(201);
  }
  return {
    lab,
    requester: { id: h.a.member.id, token: h.a.member.token },
    approver,
    manager,
    plain,
    admin,
    stranger: { id: h.b.admin.id, token: h.b.admin.token },
  };
}

export const putRule = (h: Harness, token: string, labId: string, body: Record<string, unknown>): Promise<LightMyRequestResponse> =>
  h.call(token, { method: 'PUT', url: `/labs/${labId}/approval-settings`, payload: body });

export async function setRule(h: Harness, token: string, labId: string, body: Record<string, unknown>): Promise<any> {
  const res = await putRule(h, token, labId, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** A CREATED request of the lab by `token`'s user, priced unit × quantity (USD, major units). */
export const requestFor = (h: Harness, token: string, lab: { id: string; typeId: string }, unit = '12.50', quantity = 2): Promise<any> =>
  createOrder(h, token, orderBody(lab, { price: { amount: unit, currency: 'USD' }, quantity }));

export const putStatus = (h: Harness, token: string, id: string, status: string): Promise<LightMyRequestResponse> =>
  h.call(token, { method: 'PUT', url: `/order-requests/${id}`, payload: { status } });

export async function historyTypes(h: Harness, orderId: string): Promise<string[]> {
  const rows = await h.deps.db
    .selectFrom('order_request_events')
    .select('type')
    .where('order_request_id', '=', orderId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.type);
}

/**
 * The approval tests' setup in one line: `const { h, f } = useApprovalFixture()` starts a harness (useHarness) and
 * makes the approval fixture before the file's tests; `setup` then runs with both (a rule, a first request).
 */
export function useApprovalFixture(setup?: (h: Harness, f: ApprovalFixture) => Promise<unknown>): { h: Harness; f: ApprovalFixture } {
  const f = {} as ApprovalFixture;
  const h = useHarness({}, async (h) => {
    Object.assign(f, await approvalFixture(h));
    await setup?.(h, f);
  });
  return { h, f };
}
