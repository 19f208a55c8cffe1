import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { createOrder, ORDER_FIELDS, orderBody, orderIn, parseLink, type Status } from './_helpers.js';

const h = useHarness();

// The legacy lab gets 27 CREATED requests (pagination); the migrated lab gets a known mix of statuses (filters).
const legacyIds: string[] = [];
const byStatus: Record<string, string[]> = { CREATED: [], APPROVED: [], ORDERED: [], BACKORDERED: [], CANCELLED: [] };
beforeAll(async () => {
  for (let i = 0; i < 27; i++) legacyIds.push((await createOrder(h, h.a.admin.token, orderBody(h.a.legacyLab))).id);
  const plan: Status[] = ['ORDERED', 'APPROVED', 'ORDERED', 'CANCELLED', 'CREATED', 'BACKORDERED'];
  for (const s of plan) byStatus[s]!.push((await orderIn(h, h.a.admin.token, h.a.migratedLab, s)).id);
});

const list = (query: string, token = h.a.admin.token) => h.call(token, { method: 'GET', url: `/order-requests${query}` });
const ids = (body: any[]): string[] => body.map((o) => o.id);
const sorted = (xs: string[]) => [...xs].sort();

describe('GET /order-requests pagination', () => {
  it('defaults to 25 per page with X-Total-Count and Link', async () => {
    const res = await list(`?lab_id=${h.a.legacyLab.id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Array.isArray(body)).toBe(true);
    expect(body).toHaveLength(25);
    expect(res.headers['x-total-count']).toBe('27');
    const link = parseLink(res.headers.link);
    expect(Object.keys(link).sort()).toEqual(['first', 'last', 'next']);
    expect(link.first!.searchParams.get('page')).toBe('1');
    expect(link.next!.searchParams.get('page')).toBe('2');
    expect(link.last!.searchParams.get('page')).toBe('2');
    expect(link.next!.pathname).toBe('/order-requests');
    expect(link.next!.searchParams.get('lab_id')).toBe(h.a.legacyLab.id);
    expect(ids(body)).toEqual(legacyIds.slice(0, 25));
  });

  it('page 2 has the rest, page 3 is [] (past the end)', async () => {
    const p2 = await list(`?lab_id=${h.a.legacyLab.id}&page=2`);
    expect(ids(p2.json())).toEqual(legacyIds.slice(25));
    expect(p2.headers['x-total-count']).toBe('27');
    const link2 = parseLink(p2.headers.link);
    expect(Object.keys(link2).sort()).toEqual(['first', 'last', 'prev']);
    expect(link2.prev!.searchParams.get('page')).toBe('1');

    const p3 = await list(`?lab_id=${h.a.legacyLab.id}&page=3`);
    expect(p3.statusCode).toBe(200);
    expect(p3.json()).toEqual([]);
    expect(p3.headers['x-total-count']).toBe('27');
  });

  it('per_page changes the page size and is kept in the links', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await list(`?lab_id=${h.a.legacyLab.id}&per_page=10&page=${page}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toHaveLength(page < 3 ? 10 : 7);
      const link = parseLink(res.headers.link);
      expect(link.last!.searchParams.get('page')).toBe('3');
      expect(link.last!.searchParams.get('per_page')).toBe('10');
      if (page === 2) {
        expect(link.prev!.searchParams.get('page')).toBe('1');
        expect(link.next!.searchParams.get('page')).toBe('3');
      }
      seen.push(...ids(res.json()));
    }
    // Stable order (creation time, then id): the pages concatenate to the whole list without gaps or repeats.
    expect(seen).toEqual(legacyIds);
    const one = await list(`?lab_id=${h.a.legacyLab.id}&per_page=1&page=27`);
    expect(ids(one.json())).toEqual([legacyIds[26]]);
    const max = await list(`?lab_id=${h.a.legacyLab.id}&per_page=100`);
    expect(ids(max.json())).toEqual(legacyIds);
  });

  it('without lab_id lists every visible request (both labs) in creation order', async () => {
    const res = await list('?per_page=100');
    expect(res.headers['x-total-count']).toBe('33');
    const all = ids(res.json());
    expect(all).toHaveLength(33);
    expect(all.slice(0, 27)).toEqual(legacyIds);
    for (const o of res.json()) expect(Object.keys(o).sort()).toEqual(ORDER_FIELDS);
  });

  it('an empty list still has X-Total-Count 0 and first/last links', async () => {
    const res = await list(`?lab_id=${h.a.otherLab.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(res.headers['x-total-count']).toBe('0');
    const link = parseLink(res.headers.link);
    expect(link.first!.searchParams.get('page')).toBe('1');
    expect(link.last!.searchParams.get('page')).toBe('1');
    expect(link.next).toBeUndefined();
  });

  it('list items equal the single GET of each request', async () => {
    const res = await list(`?lab_id=${h.a.migratedLab.id}`);
    for (const o of res.json()) {
      const one = await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/${o.id}` });
      expect(one.json()).toEqual(o);
    }
  });
});

describe('GET /order-requests filters', () => {
  it("lab_id returns only that lab's requests", async () => {
    const res = await list(`?lab_id=${h.a.migratedLab.id}`);
    expect(res.headers['x-total-count']).toBe('6');
    for (const o of res.json()) expect(o.lab.id).toBe(h.a.migratedLab.id);
  });

  it('lab_id of a lab that does not exist gives []', async () => {
    const res = await list('?lab_id=0190a6f2-1111-7222-8333-444455556666');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it('status=ORDERED', async () => {
    const res = await list(`?lab_id=${h.a.migratedLab.id}&status=ORDERED`);
    expect(res.statusCode).toBe(200);
    expect(sorted(ids(res.json()))).toEqual(sorted(byStatus.ORDERED!));
    expect(res.headers['x-total-count']).toBe('2');
    for (const o of res.json()) expect(o.status).toBe('ORDERED');
  });

  const expectedAB = () => sorted([...byStatus.ORDERED!, ...byStatus.APPROVED!]);

  it.each([
    ['repeated', 'status=ORDERED&status=APPROVED'],
    ['comma-separated', 'status=ORDERED,APPROVED'],
    ['comma-separated with a space', 'status=ORDERED,%20APPROVED'],
    ['bracketed', 'status[]=ORDERED&status[]=APPROVED'],
    ['bracketed, url-encoded', 'status%5B%5D=ORDERED&status%5B%5D=APPROVED'],
    ['mixed', 'status=ORDERED&status[]=APPROVED'],
  ])('several statuses, %s', async (_label, query) => {
    const res = await list(`?lab_id=${h.a.migratedLab.id}&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(sorted(ids(res.json()))).toEqual(expectedAB());
    expect(res.headers['x-total-count']).toBe('3');
  });

  it('status filter without lab_id covers every visible lab', async () => {
    const res = await list('?status=CREATED&per_page=100');
    expect(res.headers['x-total-count']).toBe('28');
    for (const o of res.json()) expect(o.status).toBe('CREATED');
  });

  it('status filter keeps pagination working', async () => {
    const res = await list(`?lab_id=${h.a.migratedLab.id}&status=ORDERED&status=APPROVED&per_page=2&page=2`);
    expect(res.json()).toHaveLength(1);
    expect(res.headers['x-total-count']).toBe('3');
    const link = parseLink(res.headers.link);
    expect(link.prev!.searchParams.getAll('status')).toEqual(['ORDERED', 'APPROVED']);
  });

  it('a single bracketed status', async () => {
    const res = await list(`?lab_id=${h.a.migratedLab.id}&status[]=CANCELLED`);
    expect(res.statusCode, res.body).toBe(200);
    expect(ids(res.json())).toEqual(byStatus.CANCELLED);
  });

  it('a status with no requests gives []', async () => {
    const res = await list(`?lab_id=${h.a.migratedLab.id}&status=RECEIVED`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(res.headers['x-total-count']).toBe('0');
  });

  it('unknown query parameters are ignored', async () => {
    const res = await list(`?lab_id=${h.a.migratedLab.id}&colour=blue`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('6');
  });
});
