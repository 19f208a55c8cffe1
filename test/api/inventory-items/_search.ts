// Helpers of the search, filter and minimum-quantity tests (docs/product.md §12): listing with a query string, and the
// names or ids a list answered, page by page. No tests here.
import { expect } from 'vitest';
import type { Harness } from '../../helpers/harness.js';
import { linkPages } from '../../helpers/shapes.js';

export interface Listed {
  status: number;
  items: any[];
  names: string[];
  ids: string[];
  total: number;
  link: string | undefined;
  body: string;
}

/** GET /inventory-items?<query> (an object, encoded here, or a ready string). */
export async function listItems(h: Harness, token: string, query: Record<string, string> | string = {}): Promise<Listed> {
  const qs = typeof query === 'string' ? query : new URLSearchParams(query).toString();
  const res = await h.call(token, { method: 'GET', url: `/inventory-items${qs ? `?${qs}` : ''}` });
  const items = res.statusCode === 200 ? (res.json() as any[]) : [];
  return {
    status: res.statusCode,
    items,
    names: items.map((i) => i.name),
    ids: items.map((i) => i.id),
    total: Number(res.headers['x-total-count'] ?? -1),
    link: res.headers.link as string | undefined,
    body: res.body,
  };
}

/** The names a search answers (200 expected), in the order given. */
export async function namesFor(h: Harness, token: string, query: Record<string, string>): Promise<string[]> {
  const r = await listItems(h, token, query);
  expect(r.status, r.body).toBe(200);
  expect(r.total).toBe(r.items.length);
  return r.names;
}

/**
 * Every page of a list, following the Link header's `next` from page 1: the ids in order, after checking that each
 * page is full but the last, that the total never changes, and that `next` keeps every query parameter.
 */
export async function allPages(h: Harness, token: string, query: Record<string, string>, perPage: number): Promise<string[]> {
  const first = await listItems(h, token, { ...query, per_page: String(perPage) });
  expect(first.status, first.body).toBe(200);
  const total = first.total;
  const ids = [...first.ids];
  let link = first.link;
  let pages = 1;
  for (;;) {
    const next = linkPages(link).next;
    if (!next) break;
    for (const [k, v] of Object.entries(query)) expect(next.url.searchParams.get(k)).toBe(v);
    const page = await listItems(h, token, next.url.search.slice(1));
    expect(page.status, page.body).toBe(200);
    expect(page.total).toBe(total);
    pages++;
    if (pages < Math.ceil(total / perPage)) expect(page.ids).toHaveLength(perPage);
    ids.push(...page.ids);
    link = page.link;
  }
  expect(pages).toBe(Math.max(1, Math.ceil(total / perPage)));
  expect(ids).toHaveLength(total);
  expect(new Set(ids).size).toBe(ids.length);
  return ids;
}
