import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, newPerson, setRole } from '../../helpers/approvals.js';
import { type Harness, startHarness } from '../../helpers/harness.js';

// Lab roles through the memberships API (docs/ordering.md): default member; set on adding or with PUT; by org admins
// and by the lab's managers.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const members = async (token: string, labId: string) => {
  const res = await h.call(token, { method: 'GET', url: `/organization/labs/${labId}/members` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: string; role: string }[];
};

describe('lab member roles', () => {
  it('a member added without a role (as existing clients do) is a member; the fixture members are members', async () => {
    const lab = h.a.legacyLab.id;
    const p = await newPerson(h, h.a.orgId, 'NoRole');
    const res = await addMember(h, h.a.admin.token, lab, p.id);
    expect(res.statusCode, res.body).toBe(201);
    const list = await members(h.a.admin.token, lab);
    expect(list.find((m) => m.id === p.id)?.role).toBe('member');
    expect(list.find((m) => m.id === h.a.member.id)?.role).toBe('member');
    for (const m of list) expect(Object.keys(m).sort()).toEqual(['added_at', 'email', 'first_name', 'id', 'last_name', 'role']);
  });

  it('an org admin adds a manager; the manager adds an approver, changes roles, lists and removes members', async () => {
    const lab = h.a.migratedLab.id;
    const manager = await newPerson(h, h.a.orgId, 'Mgr');
    const approver = await newPerson(h, h.a.orgId, 'Appr');
    expect((await addMember(h, h.a.admin.token, lab, manager.id, 'manager')).statusCode).toBe(201);
    const added = await addMember(h, manager.token, lab, approver.id, 'approver');
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().find((m: any) => m.id === approver.id).role).toBe('approver');

    const changed = await setRole(h, manager.token, lab, h.a.member.id, 'approver');
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ id: h.a.member.id, role: 'approver' });
    expect((await members(manager.token, lab)).find((m) => m.id === h.a.member.id)?.role).toBe('approver');

    // Adding someone again with a role sets it (200: they already belonged).
    const again = await addMember(h, manager.token, lab, h.a.member.id, 'member');
    expect(again.statusCode).toBe(200);
    expect(again.json().find((m: any) => m.id === h.a.member.id).role).toBe('member');
    // Adding again without a role keeps theirs.
    expect((await addMember(h, manager.token, lab, approver.id)).json().find((m: any) => m.id === approver.id).role).toBe('approver');

    const removed = await h.call(manager.token, { method: 'DELETE', url: `/organization/labs/${lab}/members/${approver.id}` });
    expect(removed.statusCode).toBe(204);
  });

  it('a manager who makes themselves a member gets their membership back, and is a manager no more', async () => {
    const lab = h.a.migratedLab.id;
    const m = await newPerson(h, h.a.orgId, 'SelfDemote');
    expect((await addMember(h, h.a.admin.token, lab, m.id, 'manager')).statusCode).toBe(201);
    const res = await setRole(h, m.token, lab, m.id, 'member');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: m.id, role: 'member' });
    expect((await setRole(h, m.token, lab, m.id, 'manager')).statusCode).toBe(403);
  });
});
