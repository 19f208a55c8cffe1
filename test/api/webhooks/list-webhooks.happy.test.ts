import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../helpers/harness.js';

// GET /webhooks: a bare array of the organization's webhooks, stable order, pages of 25 (per_page 1..100),
// Link and X-Total-Count, optional organization_id filter.

let h: Harness;
const created: Record<string, unknown>[] = [];
beforeAll(async () => {
  h = await startHarness();
  for (let i = 0; i < 5; i++) {
    const payload =
      i % 2 === 0
        ? { organization_id: h.a.orgId, url: `https://hooks.example.org/${i}`, name: `hook ${i}` }
        : { lab_id: h.a.legacyLab.id, url: `https://hooks.example.org/${i}`, event_types: ['order-request.ordered'] };
    const res = await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload });
    if (res.statusCode !== 201) throw new Error(res.body);
    created.push(res.json());
  }
});
afterAll(() => h?.close());

const list = (query = '', token = h.a.admin.token) => h.call(token, { method: 'GET', url: `/webhooks${query}` });

describe('GET /webhooks', () => {
  it('lists every webhook of the organization, in creation order, exactly as created', async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(created);
    expect(res.headers['x-total-count']).toBe('5');
  });

  it('each entry has exactly the contract fields with full event types', async () => {
    for (const w of (await list()).json()) {
      expect(Object.keys(w).sort()).toEqual(['event_types', 'id', 'is_enabled', 'is_signed', 'is_verified', 'name', 'signing_key', 'url']);
      for (const t of w.event_types) expect(t).toMatch(/^com\.labstock\./);
      expect(w.signing_key).toMatch(/^whsec_/);
    }
  });

  it('is empty for an organization without webhooks', async () => {
    const res = await list('', h.b.admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(res.headers['x-total-count']).toBe('0');
  });

  it('pages: per_page and page slice the same order, Link names first/prev/next/last', async () => {
    const p1 = await list('?per_page=2');
    const p2 = await list('?per_page=2&page=2');
    const p3 = await list('?per_page=2&page=3');
    expect(p1.json()).toEqual(created.slice(0, 2));
    expect(p2.json()).toEqual(created.slice(2, 4));
    expect(p3.json()).toEqual(created.slice(4));
    const link = String(p2.headers.link);
    for (const rel of ['first', 'prev', 'next', 'last']) expect(link).toContain(`rel="${rel}"`);
    expect(link).toMatch(/page=3[^>]*>; rel="last"/);
    expect(String(p1.headers.link)).not.toContain('rel="prev"');
    expect(String(p3.headers.link)).not.toContain('rel="next"');
    expect(p2.headers['x-total-count']).toBe('5');
  });

  it('past the last page: []', async () => {
    const res = await list('?page=2');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it("organization_id of the token's own organization filters to the same list", async () => {
    const res = await list(`?organization_id=${h.a.orgId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(created);
  });

  it('ignores unknown query parameters', async () => {
    const res = await list('?colour=blue&sort=name');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(created);
  });

  it('shows changes made by PUT', async () => {
    const id = created[0]!.id as string;
    const put = await h.call(h.a.admin.token, { method: 'PUT', url: `/webhooks/${id}`, payload: { is_enabled: false } });
    expect(put.statusCode).toBe(200);
    const entry = (await list()).json().find((w: { id: string }) => w.id === id);
    expect(entry.is_enabled).toBe(false);
  });
});
