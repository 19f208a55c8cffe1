import { describe, expect, it } from 'vitest';
import { create, DATETIME_RE, h, ping, receiver, settle, UUID_RE, useDeliveringApp, worker } from './_setup.js';

// GET /webhooks/{id}/deliveries (docs/product.md §8, lists as in §2): this webhook's deliveries, newest first, a bare
// array paginated with Link and X-Total-Count, each with its whole attempt log in the order the attempts ran.

useDeliveringApp();

const DELIVERY_FIELDS = ['attempts', 'completed_at', 'created_at', 'event_id', 'event_type', 'id', 'log', 'next_attempt_at', 'status'];
const ATTEMPT_FIELDS = ['attempted_at', 'duration_ms', 'error', 'outcome', 'response_body', 'status_code'];

const list = (id: string, query = '') => h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${id}/deliveries${query}` });

/** rel -> {page, per_page} of an RFC 8288 Link header. */
function links(header: unknown): Record<string, { page: string | null; per_page: string | null; path: string }> {
  const out: Record<string, { page: string | null; per_page: string | null; path: string }> = {};
  for (const part of String(header).split(',')) {
    const m = /<([^>]+)>;\s*rel="(\w+)"/.exec(part.trim());
    if (!m) continue;
    const url = new URL(m[1]!);
    out[m[2]!] = { page: url.searchParams.get('page'), per_page: url.searchParams.get('per_page'), path: url.pathname };
  }
  return out;
}

describe('GET /webhooks/{id}/deliveries', () => {
  it('a webhook with no deliveries: 200 [], X-Total-Count 0, Link to page 1', async () => {
    const hook = await create('empty');
    const res = await list(hook.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([]);
    expect(res.headers['x-total-count']).toBe('0');
    const l = links(res.headers.link);
    expect(Object.keys(l).sort()).toEqual(['first', 'last']);
    expect(l.first!.page).toBe('1');
    expect(l.last!.page).toBe('1');
  });

  it('newest first, each with exactly the documented fields and its attempt log', async () => {
    const hook = await create('three');
    const sent = [];
    for (let i = 0; i < 3; i++) sent.push(await ping(hook.id));
    await receiver.waitFor(3);
    await settle();
    const res = await list(hook.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-total-count']).toBe('3');
    const deliveries = res.json();
    expect(deliveries.map((d: { id: string }) => d.id)).toEqual(sent.map((s) => s.id).reverse());
    expect(deliveries.map((d: { event_id: string }) => d.event_id)).toEqual(sent.map((s) => s.event_id).reverse());
    for (const d of deliveries) {
      expect(Object.keys(d).sort()).toEqual(DELIVERY_FIELDS);
      expect(d.id).toMatch(UUID_RE);
      expect(d).toMatchObject({ event_type: 'com.labstock.webhook.ping', status: 'succeeded', attempts: 1, next_attempt_at: null });
      expect(d.created_at).toMatch(DATETIME_RE);
      expect(d.completed_at).toMatch(DATETIME_RE);
      expect(Date.parse(d.completed_at)).toBeGreaterThanOrEqual(Date.parse(d.created_at));
      expect(d.log).toHaveLength(1);
      expect(Object.keys(d.log[0]).sort()).toEqual(ATTEMPT_FIELDS);
      expect(d.log[0]).toMatchObject({ outcome: 'success', status_code: 204, error: null, response_body: '' });
      expect(d.log[0].attempted_at).toMatch(DATETIME_RE);
      expect(Number.isInteger(d.log[0].duration_ms) && d.log[0].duration_ms >= 0).toBe(true);
    }
    for (let i = 1; i < deliveries.length; i++) expect(deliveries[i - 1].created_at >= deliveries[i].created_at).toBe(true);
  });

  it("deliveries of real changes name their event type; only this webhook's deliveries are listed", async () => {
    const mine = await create('mine', { event_types: ['inventory-item.updated'] });
    const other = await create('other');
    const n = receiver.posts.length;
    const put = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/inventory-items/${h.a.legacyLab.itemId}`,
      payload: { quantity: '9' },
    });
    expect(put.statusCode).toBe(200);
    await ping(other.id);
    await receiver.waitFor(n + 3);
    await settle();
    const res = await list(mine.id);
    expect(res.json().map((d: { event_type: string }) => d.event_type)).toEqual(['com.labstock.inventory-item.updated']);
    expect(res.headers['x-total-count']).toBe('1');
    const otherTypes = (await list(other.id)).json().map((d: { event_type: string }) => d.event_type);
    expect(otherTypes).toEqual(['com.labstock.webhook.ping', 'com.labstock.inventory-item.updated']);
  });

  it('pages: per_page and page slice the newest-first order; Link names first/prev/next/last; past the end []', async () => {
    const hook = await create('paged');
    const sent = [];
    for (let i = 0; i < 5; i++) sent.push(await ping(hook.id));
    await settle();
    const all = (await list(hook.id)).json().map((d: { id: string }) => d.id);
    expect(all).toEqual(sent.map((s) => s.id).reverse());

    const pages = [];
    for (const page of [1, 2, 3]) {
      const res = await list(hook.id, `?per_page=2&page=${page}`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-total-count']).toBe('5');
      pages.push(res);
    }
    expect(pages.flatMap((p) => p.json().map((d: { id: string }) => d.id))).toEqual(all);
    expect(pages.map((p) => p.json().length)).toEqual([2, 2, 1]);
    const l2 = links(pages[1]!.headers.link);
    expect(Object.fromEntries(Object.entries(l2).map(([rel, v]) => [rel, v.page]))).toEqual({
      first: '1',
      prev: '1',
      next: '3',
      last: '3',
    });
    for (const v of Object.values(l2)) {
      expect(v.per_page).toBe('2');
      expect(v.path).toBe(`/webhooks/${hook.id}/deliveries`);
    }
    expect(Object.keys(links(pages[0]!.headers.link))).not.toContain('prev');
    expect(Object.keys(links(pages[2]!.headers.link))).not.toContain('next');

    const past = await list(hook.id, '?per_page=2&page=4');
    expect(past.statusCode).toBe(200);
    expect(past.json()).toEqual([]);
    expect(past.headers['x-total-count']).toBe('5');
  });

  it('25 per page by default', async () => {
    const hook = await create('many');
    for (let i = 0; i < 26; i++) await ping(hook.id);
    await settle();
    const p1 = await list(hook.id);
    expect(p1.json()).toHaveLength(25);
    expect(p1.headers['x-total-count']).toBe('26');
    expect(links(p1.headers.link).next!.page).toBe('2');
    const p2 = await list(hook.id, '?page=2');
    expect(p2.json()).toHaveLength(1);
    const ids = new Set([...p1.json(), ...p2.json()].map((d: { id: string }) => d.id));
    expect(ids.size).toBe(26);
  });

  it('a retried delivery: pending with next_attempt_at while it waits (Retry-After honoured), then every attempt in order', async () => {
    const hook = await create('retry');
    let calls = 0;
    receiver.respond = (req) => {
      if (req.path !== '/hook?w=retry' || req.method !== 'POST') return { status: 204 };
      calls += 1;
      return calls === 1 ? { status: 503, headers: { 'retry-after': '1' }, body: 'busy' } : { status: 200, body: 'ok' };
    };
    try {
      const n = receiver.posts.length;
      const t0 = Date.now();
      const queued = await ping(hook.id);
      await receiver.waitFor(n + 1);
      await worker.idle(); // the first attempt is logged; the retry waits about a second
      const [waiting] = (await list(hook.id)).json();
      expect(waiting).toMatchObject({ id: queued.id, status: 'pending', attempts: 1, completed_at: null });
      expect(waiting.next_attempt_at).toMatch(DATETIME_RE);
      expect(Date.parse(waiting.next_attempt_at)).toBeGreaterThanOrEqual(t0 + 900);
      expect(waiting.log).toEqual([
        expect.objectContaining({ outcome: 'http_error', status_code: 503, error: 'HTTP 503', response_body: 'busy' }),
      ]);

      await settle();
      const [done] = (await list(hook.id)).json();
      expect(done).toMatchObject({
        id: queued.id,
        status: 'succeeded',
        attempts: 2,
        next_attempt_at: null,
        completed_at: expect.stringMatching(DATETIME_RE),
      });
      expect(
        done.log.map((l: { outcome: string; status_code: number; response_body: string }) => [l.outcome, l.status_code, l.response_body]),
      ).toEqual([
        ['http_error', 503, 'busy'],
        ['success', 200, 'ok'],
      ]);
      expect(Date.parse(done.log[1].attempted_at) - Date.parse(done.log[0].attempted_at)).toBeGreaterThanOrEqual(900);
    } finally {
      receiver.respond = () => ({ status: 204 });
    }
  });

  it("lists a lab webhook's deliveries; once the webhook is deleted its log is 404", async () => {
    const lab = await create('lab-log', { organization_id: undefined, lab_id: h.a.legacyLab.id });
    const queued = await ping(lab.id);
    await settle();
    const res = await list(lab.id);
    expect(res.json().map((d: { id: string }) => d.id)).toEqual([queued.id]);
    expect((await h.call(h.a.admin.token, { method: 'DELETE', url: `/webhooks/${lab.id}` })).statusCode).toBe(204);
    expect((await list(lab.id)).statusCode).toBe(404);
  });
});
