import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { createOrder, orderBody } from './_helpers.js';

const h = useHarness();

const secret = 'Zebrafish morpholino';
let bOrder = '';
let otherLabOrder = '';
beforeAll(async () => {
  bOrder = (await createOrder(h, h.b.member.token, orderBody(h.b.legacyLab, { name: secret }))).id;
  otherLabOrder = (await createOrder(h, h.a.admin.token, orderBody(h.a.otherLab, { name: secret }))).id;
});

const list = (token: string | null, query: string) => h.call(token, { method: 'GET', url: `/order-requests${query}` });

describe('GET /order-requests search and requester never widen what a caller sees', () => {
  it("another organization's person, by id, gives [] (not their requests)", async () => {
    for (const token of [h.a.admin.token, h.a.member.token]) {
      const res = await list(token, `?requested_by=${h.b.member.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
      expect(res.headers['x-total-count']).toBe('0');
      expect(res.body).not.toContain(bOrder);
    }
  });

  it('q finds nothing of another organization, nor of a lab the member does not belong to', async () => {
    const admin = await list(h.a.admin.token, `?q=zebrafish`);
    expect(admin.json().map((o: { id: string }) => o.id)).toEqual([otherLabOrder]);
    const member = await list(h.a.member.token, `?q=zebrafish&requested_by=${h.a.admin.id}`);
    expect(member.json()).toEqual([]);
    expect(member.headers['x-total-count']).toBe('0');
    const outsider = await list(h.a.outsider.token, '?q=zebrafish&sort=-requested_at');
    expect(outsider.json()).toEqual([]);
  });

  it('401 without a token, whatever the parameters', async () => {
    const res = await list(null, '?q=zebrafish&requested_by=me&sort=-requested_at');
    expect(res.statusCode).toBe(401);
    expect(res.body).not.toContain(bOrder);
  });
});
