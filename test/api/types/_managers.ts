// Shared by the type tests (no tests in here): a manager of org A's legacy lab who is not an org admin, made through
// the memberships API as an org admin would (docs/ordering.md, "Lab roles"). The fixture's member stays a member.
import { expect } from 'vitest';
import { addMember, newPerson, type Person } from '../../helpers/approvals.js';
import type { Harness } from '../../helpers/harness.js';

export async function legacyLabManager(h: Harness): Promise<Person> {
  const manager = await newPerson(h, h.a.orgId, 'Manager');
  const res = await addMember(h, h.a.admin.token, h.a.legacyLab.id, manager.id, 'manager');
  expect(res.statusCode, res.body).toBe(201);
  return manager;
}

/** The sentence of a 403 on a type: who may do it. */
export const MANAGERS_ONLY = "Only organization admins and the lab's managers create, rename and delete its types";
