import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { createOrder, expectNotFound, MISSING_ID, orderBody } from './_helpers.js';

// Another organization's request, or one of a lab the person does not belong to, is 404 like a missing id: never
// its history.

let bOrder: { id: string };
let otherLabOrder: { id: string };
const h = useHarness({}, async (h) => {
  bOrder = await createOrder(h, h.b.admin.token, orderBody(h.b.legacyLab, { name: 'B secret reagent' }));
  otherLabOrder = await createOrder(h, h.a.admin.token, orderBody(h.a.otherLab, { name: 'Other lab reagent' }));
});

const history = (token: string | null, id: string) => h.call(token, { method: 'GET', url: `/order-requests/${id}/history` });

describe('GET /order-requests/{id}/history visibility', () => {
  it("404 for org B's request with every org A token, exactly as for a missing id; B sees it", async () => {
    const missing = await history(h.a.admin.token, MISSING_ID);
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      const res = await history(token, bOrder.id);
      expectNotFound(res);
      expect(res.json().message).toBe(missing.json().message);
      expect(res.body).not.toContain(h.b.admin.id);
    }
    expect((await history(h.b.admin.token, bOrder.id)).statusCode).toBe(200);
  });

  it('404 for a member on a request of a lab they do not belong to; the org admin sees it', async () => {
    expectNotFound(await history(h.a.member.token, otherLabOrder.id));
    expect((await history(h.a.admin.token, otherLabOrder.id)).statusCode).toBe(200);
  });

  it('401 without a token', async () => {
    expect((await history(null, otherLabOrder.id)).statusCode).toBe(401);
  });
});
