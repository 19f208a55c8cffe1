import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { createOrder, orderBody, orderIn } from './_helpers.js';

const h = useHarness();

const aIds: Record<'legacy' | 'migrated' | 'other', string[]> = { legacy: [], migrated: [], other: [] };
const bIds: string[] = [];
beforeAll(async () => {
  aIds.legacy.push((await createOrder(h, h.a.member.token, orderBody(h.a.legacyLab))).id);
  aIds.migrated.push((await orderIn(h, h.a.admin.token, h.a.migratedLab, 'ORDERED')).id);
  aIds.other.push((await createOrder(h, h.a.admin.token, orderBody(h.a.otherLab))).id);
  aIds.other.push((await orderIn(h, h.a.admin.token, h.a.otherLab, 'ORDERED')).id);
  for (const lab of [h.b.legacyLab, h.b.migratedLab, h.b.otherLab]) bIds.push((await createOrder(h, h.b.admin.token, orderBody(lab))).id);
  bIds.push((await orderIn(h, h.b.admin.token, h.b.legacyLab, 'ORDERED')).id);
});

const list = async (token: string | null, query = '') => {
  const res = await h.call(token, { method: 'GET', url: `/order-requests${query}` });
  return res;
};
const idsOf = (res: { json(): any }): string[] =>
  res
    .json()
    .map((o: any) => o.id)
    .sort();

describe('GET /order-requests tenancy', () => {
  it("org A admin sees all of A's requests and none of B's", async () => {
    const res = await list(h.a.admin.token, '?per_page=100');
    expect(res.statusCode).toBe(200);
    expect(idsOf(res)).toEqual([...aIds.legacy, ...aIds.migrated, ...aIds.other].sort());
    expect(res.headers['x-total-count']).toBe('4');
    for (const o of res.json()) expect(o.lab.organization.id).toBe(h.a.orgId);
  });

  it("org B sees only B's", async () => {
    const res = await list(h.b.admin.token, '?per_page=100');
    expect(idsOf(res)).toEqual([...bIds].sort());
  });

  it('lab_id of an org B lab gives [] to org A tokens', async () => {
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const lab of [h.b.legacyLab, h.b.migratedLab, h.b.otherLab]) {
        const res = await list(token, `?lab_id=${lab.id}`);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual([]);
        expect(res.headers['x-total-count']).toBe('0');
      }
    }
  });

  it('status filters never widen visibility across tenants', async () => {
    const res = await list(h.a.admin.token, '?status=ORDERED&status=CREATED&per_page=100');
    for (const id of bIds) expect(idsOf(res)).not.toContain(id);
    const b = await list(h.a.admin.token, `?lab_id=${h.b.legacyLab.id}&status=ORDERED`);
    expect(b.json()).toEqual([]);
  });
});

describe('GET /order-requests within an organization', () => {
  it('a member sees the labs they belong to, not the other lab', async () => {
    const res = await list(h.a.member.token, '?per_page=100');
    expect(idsOf(res)).toEqual([...aIds.legacy, ...aIds.migrated].sort());
    expect(res.headers['x-total-count']).toBe('2');
    for (const id of aIds.other) expect(res.body).not.toContain(id);
  });

  it('a member gets [] for lab_id of the other lab, also with a status filter', async () => {
    const res = await list(h.a.member.token, `?lab_id=${h.a.otherLab.id}`);
    expect(res.json()).toEqual([]);
    expect(res.headers['x-total-count']).toBe('0');
    const filtered = await list(h.a.member.token, `?lab_id=${h.a.otherLab.id}&status=ORDERED`);
    expect(filtered.json()).toEqual([]);
  });

  it('an outsider (no labs) sees [] everywhere', async () => {
    for (const query of ['', `?lab_id=${h.a.legacyLab.id}`, `?lab_id=${h.a.otherLab.id}`, '?status=ORDERED', '?page=2']) {
      const res = await list(h.a.outsider.token, query);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([]);
      expect(res.headers['x-total-count']).toBe('0');
    }
  });
});

describe('GET /order-requests authentication', () => {
  it('401 without a token, and no data in the body', async () => {
    const res = await list(null);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('unauthorized');
    expect(res.headers['x-total-count']).toBeUndefined();
    for (const id of aIds.legacy) expect(res.body).not.toContain(id);
  });

  it('401 with an unknown token', async () => {
    const res = await list('definitely-not-a-token');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('unauthorized');
  });
});
