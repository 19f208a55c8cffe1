import { beforeAll, describe, expect, it } from 'vitest';
import { addMember, historyTypes, putStatus, requestFor, setRule, useApprovalFixture } from '../../helpers/approvals.js';
import { expectError } from '../../helpers/errors.js';
import { eventsOfType } from '../../helpers/events.js';
import { createOrder, orderBody } from '../../helpers/orders.js';

// docs/ordering.md: each rule with the requester, an approver, a manager, an org admin and another tenant; PUT
// /order-requests/{id} is the one way the API moves a status (the shop's checkout: approval-shop.test.ts).

const { h, f } = useApprovalFixture();

const orderedEvents = async (id: string) =>
  (await eventsOfType(h, 'com.labstock.order-request.ordered')).filter((e) => e.event.data?.order_request?.id === id);

async function expectStatus(id: string, status: string) {
  const res = await h.call(f.admin.token, { method: 'GET', url: `/order-requests/${id}` });
  expect(res.json().status).toBe(status);
}

describe('without a rule (and with none), as before', () => {
  it('the requester orders and approves their own request; any member of the lab approves', async () => {
    const a = await requestFor(h, f.requester.token, f.lab, '5000.00', 10);
    expect((await putStatus(h, f.requester.token, a.id, 'APPROVED')).statusCode).toBe(200);
    expect((await putStatus(h, f.requester.token, a.id, 'ORDERED')).statusCode).toBe(200);
    const b = await requestFor(h, f.requester.token, f.lab);
    expect((await putStatus(h, f.plain.token, b.id, 'APPROVED')).statusCode).toBe(200);
    const c = await requestFor(h, f.requester.token, f.lab);
    expect((await putStatus(h, f.requester.token, c.id, 'ORDERED')).statusCode).toBe(200);
    expect(await orderedEvents(c.id)).toHaveLength(1);
  });

  it('an explicit none is the same: the requester orders their own request directly', async () => {
    await setRule(h, f.admin.token, f.lab.id, { rule: 'none' });
    const r = await requestFor(h, f.requester.token, f.lab, '5000.00', 10);
    expect((await putStatus(h, f.requester.token, r.id, 'ORDERED')).statusCode).toBe(200);
    const s = await requestFor(h, f.requester.token, f.lab);
    expect((await putStatus(h, f.requester.token, s.id, 'APPROVED')).statusCode).toBe(200);
  });
});

describe('rule all', () => {
  let lab: { id: string; typeId: string };
  beforeAll(async () => {
    // The migrated lab, so the other describe blocks keep theirs: the requester and the plain member belong to it.
    lab = { id: h.a.migratedLab.id, typeId: h.a.migratedLab.typeId };
    for (const [p, role] of [
      [f.approver, 'approver'],
      [f.manager, 'manager'],
      [f.plain, 'member'],
    ] as const) {
      const res = await addMember(h, f.admin.token, lab.id, p.id, role);
      expect(res.statusCode, res.body).toBe(201);
    }
    await setRule(h, f.admin.token, lab.id, { rule: 'all' });
  });

  it('refuses ordering a CREATED request (409 approval_required): nothing changes, no history, no event', async () => {
    const r = await requestFor(h, f.requester.token, lab, '0.01', 1);
    const body = expectError(await putStatus(h, f.requester.token, r.id, 'ORDERED'), 409, 'approval_required');
    expect(body.allowed).toEqual(['APPROVED', 'CANCELLED']);
    expect(body.message).toContain(r.id);
    // An org admin is refused too: the rule is about the request, not who orders it.
    expectError(await putStatus(h, f.admin.token, r.id, 'ORDERED'), 409, 'approval_required');
    await expectStatus(r.id, 'CREATED');
    expect(await historyTypes(h, r.id)).toEqual(['CREATED']);
    expect(await orderedEvents(r.id)).toHaveLength(0);
  });

  it('refuses self-approval (403 self_approval) and a plain member (403 forbidden)', async () => {
    const r = await requestFor(h, f.requester.token, lab);
    expectError(await putStatus(h, f.requester.token, r.id, 'APPROVED'), 403, 'self_approval');
    expectError(await putStatus(h, f.plain.token, r.id, 'APPROVED'), 403, 'forbidden');
    await expectStatus(r.id, 'CREATED');
    expect(await historyTypes(h, r.id)).toEqual(['CREATED']);
  });

  it('no self-approval for an approver, a manager or an org admin either', async () => {
    for (const who of [f.approver, f.manager, f.admin]) {
      const r = await requestFor(h, who.token, lab);
      expectError(await putStatus(h, who.token, r.id, 'APPROVED'), 403, 'self_approval');
    }
  });

  for (const role of ['approver', 'manager', 'admin'] as const) {
    it(`an ${role} other than the requester approves; then the request can be ordered, with one ordered event`, async () => {
      const r = await requestFor(h, f.requester.token, lab);
      const res = await putStatus(h, f[role].token, r.id, 'APPROVED');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().status).toBe('APPROVED');
      const ordered = await putStatus(h, f.requester.token, r.id, 'ORDERED');
      expect(ordered.statusCode, ordered.body).toBe(200);
      expect(await historyTypes(h, r.id)).toEqual(['CREATED', 'APPROVED', 'ORDERED']);
      expect(await orderedEvents(r.id)).toHaveLength(1);
    });
  }

  it('another tenant sees nothing (404) and changes nothing', async () => {
    const r = await requestFor(h, f.requester.token, lab);
    for (const s of ['APPROVED', 'ORDERED']) {
      const res = await putStatus(h, f.stranger.token, r.id, s);
      expectError(res, 404, 'not_found');
    }
    await expectStatus(r.id, 'CREATED');
  });

  it('a cancelled and reopened request needs approval again', async () => {
    const r = await requestFor(h, f.requester.token, lab);
    for (const s of ['APPROVED', 'CANCELLED']) expect((await putStatus(h, f.approver.token, r.id, s)).statusCode).toBe(200);
    expect((await putStatus(h, f.requester.token, r.id, 'CREATED')).statusCode).toBe(200);
    expectError(await putStatus(h, f.requester.token, r.id, 'ORDERED'), 409, 'approval_required');
  });

  it('the requester may still cancel a request waiting for approval', async () => {
    const r = await requestFor(h, f.requester.token, lab);
    expect((await putStatus(h, f.requester.token, r.id, 'CANCELLED')).statusCode).toBe(200);
  });
});

describe('rule above', () => {
  let lab: { id: string; typeId: string };
  beforeAll(async () => {
    // A lab of its own: the requester, the approver and the manager are added to the organization's third lab.
    lab = { id: h.a.otherLab.id, typeId: h.a.otherLab.typeId };
    for (const [p, role] of [
      [f.requester, 'member'],
      [f.approver, 'approver'],
      [f.manager, 'manager'],
    ] as const) {
      const res = await addMember(h, f.admin.token, lab.id, p.id, role);
      expect(res.statusCode, res.body).toBe(201);
    }
    // The manager sets it: managers may, like org admins.
    await setRule(h, f.manager.token, lab.id, { rule: 'above', threshold: { amount: '100.00', currency: 'USD' } });
  });

  it('a total at or below the threshold is ordered directly by the requester', async () => {
    for (const [unit, qty] of [
      ['50.00', 2],
      ['10.00', 1],
    ] as const) {
      const r = await requestFor(h, f.requester.token, lab, unit, qty);
      const res = await putStatus(h, f.requester.token, r.id, 'ORDERED');
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('a total above it needs an approver (not the requester) first', async () => {
    const r = await requestFor(h, f.requester.token, lab, '50.01', 2);
    expectError(await putStatus(h, f.requester.token, r.id, 'ORDERED'), 409, 'approval_required');
    expectError(await putStatus(h, f.requester.token, r.id, 'APPROVED'), 403, 'self_approval');
    expect((await putStatus(h, f.manager.token, r.id, 'APPROVED')).statusCode).toBe(200);
    expect((await putStatus(h, f.requester.token, r.id, 'ORDERED')).statusCode).toBe(200);
  });

  it('a request in another currency than the threshold needs approval', async () => {
    const r = await createOrder(h, f.requester.token, orderBody(lab, { price: { amount: '1.00', currency: 'EUR' }, quantity: 1 }));
    expectError(await putStatus(h, f.requester.token, r.id, 'ORDERED'), 409, 'approval_required');
    expect((await putStatus(h, f.admin.token, r.id, 'APPROVED')).statusCode).toBe(200);
  });

  it('the rule in force when ordering decides: a request made under none needs approval once the rule is all', async () => {
    const r = await requestFor(h, f.requester.token, lab, '1.00', 1);
    await setRule(h, f.admin.token, lab.id, { rule: 'all' });
    try {
      expectError(await putStatus(h, f.requester.token, r.id, 'ORDERED'), 409, 'approval_required');
    } finally {
      await setRule(h, f.admin.token, lab.id, { rule: 'above', threshold: { amount: '100.00', currency: 'USD' } });
    }
    expect((await putStatus(h, f.requester.token, r.id, 'ORDERED')).statusCode).toBe(200);
  });
});
