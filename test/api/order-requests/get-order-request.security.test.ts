import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { createOrder, expectNotFound, MISSING_ID, orderBody } from './_helpers.js';

const h = useHarness();

let bOrder: any;
let otherLabOrder: any;
let legacyOrder: any;
beforeAll(async () => {
  bOrder = await createOrder(h, h.b.admin.token, orderBody(h.b.legacyLab));
  otherLabOrder = await createOrder(h, h.a.admin.token, orderBody(h.a.otherLab));
  legacyOrder = await createOrder(h, h.a.member.token, orderBody(h.a.legacyLab));
});

const get = (token: string | null, id: string) => h.call(token, { method: 'GET', url: `/order-requests/${id}` });

describe('GET /order-requests/{id} visibility', () => {
  it("404 for org B's request with org A tokens (admin, member, outsider)", async () => {
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      const res = await get(token, bOrder.id);
      expectNotFound(res);
      expect(res.body).not.toContain(h.b.legacyLab.id);
    }
    // B itself sees it, so the 404 is about the token, not the id.
    expect((await get(h.b.admin.token, bOrder.id)).statusCode).toBe(200);
  });

  it('the 404 for another tenant is indistinguishable from a missing id', async () => {
    const foreign = await get(h.a.admin.token, bOrder.id);
    const missing = await get(h.a.admin.token, MISSING_ID);
    expect(foreign.statusCode).toBe(missing.statusCode);
    expect(foreign.json().message).toBe(missing.json().message);
    expect(foreign.json().code).toBe(missing.json().code);
  });

  it('404 for a member on a request of a lab they do not belong to', async () => {
    expectNotFound(await get(h.a.member.token, otherLabOrder.id));
    expect((await get(h.a.admin.token, otherLabOrder.id)).statusCode).toBe(200);
  });

  it('404 for an outsider on every request of the org', async () => {
    for (const o of [legacyOrder, otherLabOrder]) expectNotFound(await get(h.a.outsider.token, o.id));
  });

  it("org B cannot read org A's requests either", async () => {
    expectNotFound(await get(h.b.admin.token, legacyOrder.id));
    expectNotFound(await get(h.b.member.token, legacyOrder.id));
  });

  it('401 without a token or with an unknown token', async () => {
    const none = await get(null, legacyOrder.id);
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe('unauthorized');
    expect(none.body).not.toContain(legacyOrder.item_name);
    const bogus = await get('not-a-token', legacyOrder.id);
    expect(bogus.statusCode).toBe(401);
    expect(bogus.json().code).toBe('unauthorized');
  });
});
