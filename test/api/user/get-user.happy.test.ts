import { describe, expect, it } from 'vitest';
import { dbState } from '../../helpers/data.js';
import { adminSummary, expectUserShape, memberSummary } from '../../helpers/shapes.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

describe('GET /user (happy)', () => {
  it("returns exactly the User summary of the token's owner (admin)", async () => {
    const res = await h.call(h.a.admin.token, { method: 'GET', url: '/user' });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
    const body = res.json();
    expectUserShape(body);
    expect(body).toEqual(adminSummary(h.a, 'A'));
  });

  it("returns the member for the member's token", async () => {
    const res = await h.call(h.a.member.token, { method: 'GET', url: '/user' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(memberSummary(h.a, 'A'));
  });

  it('works for a user who belongs to no lab', async () => {
    const res = await h.call(h.a.outsider.token, { method: 'GET', url: '/user' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: h.a.outsider.id, first_name: 'Olga', last_name: 'OutsiderA', email: 'outsider-a@example.org' });
  });

  it('returns the users of the other organization for their tokens', async () => {
    const admin = await h.call(h.b.admin.token, { method: 'GET', url: '/user' });
    expect(admin.json()).toEqual(adminSummary(h.b, 'B'));
    const member = await h.call(h.b.member.token, { method: 'GET', url: '/user' });
    expect(member.json()).toEqual(memberSummary(h.b, 'B'));
  });

  it('accepts Authorization: Bearer <token> as well as Access-Token', async () => {
    const res = await h.call(null, { method: 'GET', url: '/user', headers: { authorization: `Bearer ${h.a.member.token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(memberSummary(h.a, 'A'));
    const lower = await h.call(null, { method: 'GET', url: '/user', headers: { authorization: `bearer ${h.a.admin.token}` } });
    expect(lower.statusCode).toBe(200);
    expect(lower.json().id).toBe(h.a.admin.id);
  });

  it('ignores unknown query parameters', async () => {
    const res = await h.call(h.a.admin.token, { method: 'GET', url: '/user?foo=bar' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(adminSummary(h.a, 'A'));
  });

  it('changes no inventory data and emits no event', async () => {
    const before = await dbState(h);
    await h.call(h.a.admin.token, { method: 'GET', url: '/user' });
    expect(await dbState(h)).toEqual(before);
  });
});
