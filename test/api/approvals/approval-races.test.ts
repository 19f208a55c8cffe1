import { describe, expect, it } from 'vitest';
import { historyTypes, putStatus, requestFor, setRule, useApprovalFixture } from '../../helpers/approvals.js';
import { expectError } from '../../helpers/errors.js';
import { eventsOfType } from '../../helpers/events.js';

// Concurrent decisions on one request (docs/ordering.md): the request row is locked for the change (PostgreSQL;
// SQLite's write transactions are serial), so one decision wins and the history records it once.

const ROUNDS = 5;
const { h, f } = useApprovalFixture(async (h, f) => {
  await setRule(h, f.admin.token, f.lab.id, { rule: 'all' });
});

const count = (types: string[], t: string) => types.filter((x) => x === t).length;

describe('approval races', () => {
  it('two approvers at once: both answered 200, one APPROVED in the history', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const r = await requestFor(h, f.requester.token, f.lab);
      const answers = await Promise.all([
        putStatus(h, f.approver.token, r.id, 'APPROVED'),
        putStatus(h, f.manager.token, r.id, 'APPROVED'),
        putStatus(h, f.admin.token, r.id, 'APPROVED'),
      ]);
      for (const a of answers) expect(a.statusCode, a.body).toBe(200);
      expect(await historyTypes(h, r.id)).toEqual(['CREATED', 'APPROVED']);
    }
  });

  it('approve and cancel at once: the request ends CANCELLED and the history holds exactly what was answered 200', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const r = await requestFor(h, f.requester.token, f.lab);
      const [approve, cancel] = await Promise.all([
        putStatus(h, f.approver.token, r.id, 'APPROVED'),
        putStatus(h, f.requester.token, r.id, 'CANCELLED'),
      ]);
      expect(cancel.statusCode, cancel.body).toBe(200);
      const types = await historyTypes(h, r.id);
      expect(count(types, 'CANCELLED')).toBe(1);
      if (approve.statusCode === 200) {
        // Approved first, then cancelled (APPROVED -> CANCELLED is allowed).
        expect(types).toEqual(['CREATED', 'APPROVED', 'CANCELLED']);
      } else {
        // Cancelled first: approving a cancelled request is not a transition.
        expectError(approve, 409, 'invalid_transition');
        expect(types).toEqual(['CREATED', 'CANCELLED']);
      }
      const now = await h.call(f.admin.token, { method: 'GET', url: `/order-requests/${r.id}` });
      expect(now.json().status).toBe('CANCELLED');
    }
  });

  it('approve and order at once: ordered only once approved, with at most one ordered event', async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const r = await requestFor(h, f.requester.token, f.lab);
      const [approve, order] = await Promise.all([
        putStatus(h, f.approver.token, r.id, 'APPROVED'),
        putStatus(h, f.requester.token, r.id, 'ORDERED'),
      ]);
      expect(approve.statusCode, approve.body).toBe(200);
      const events = (await eventsOfType(h, 'com.labstock.order-request.ordered')).filter((e) => e.event.data?.order_request?.id === r.id);
      const types = await historyTypes(h, r.id);
      if (order.statusCode === 200) {
        expect(types).toEqual(['CREATED', 'APPROVED', 'ORDERED']);
        expect(events).toHaveLength(1);
      } else {
        expectError(order, 409, 'approval_required');
        expect(types).toEqual(['CREATED', 'APPROVED']);
        expect(events).toHaveLength(0);
      }
    }
  });
});
