import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';

export const DEFAULT_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;

export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: '1-based page number (25 per page by default).' })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE, description: 'Page size, 1 to 100.' })),
};

export interface Page {
  page: number;
  perPage: number;
  offset: number;
}

export const pageOf = (q: { page?: number; per_page?: number }): Page => {
  const page = q.page ?? 1;
  const perPage = q.per_page ?? DEFAULT_PER_PAGE;
  return { page, perPage, offset: (page - 1) * perPage };
};

/**
 * APP_URL; behind a trusted proxy (TRUST_PROXY) that names the public host in X-Forwarded-Host, that host and
 * X-Forwarded-Proto instead (Fastify reads them only from trusted proxies), keeping APP_URL's path prefix.
 */
function linkOrigin(request: FastifyRequest): string {
  const { appUrl, trustProxy } = request.server.deps.config;
  if (trustProxy === false || request.headers['x-forwarded-host'] === undefined) return appUrl;
  return `${request.protocol}://${request.host}${new URL(appUrl).pathname.replace(/\/+$/, '')}`;
}

/**
 * The absolute URL of another page of this list: APP_URL, the route's path, and only the parameters the operation
 * declares, from the validated query. Neither the Host header nor unknown query parameters reach the Link header,
 * so it stays a few hundred bytes and points at this service whatever the client sent.
 */
function pageUrlBuilder(request: FastifyRequest): (page: number) => string {
  const params = request.params as Record<string, string> | undefined;
  const path = (request.routeOptions.url ?? '/').replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(params?.[name] ?? ''));
  const schema = request.routeOptions.schema?.querystring as { properties?: Record<string, unknown> } | undefined;
  const query = (request.query ?? {}) as Record<string, unknown>;
  const search = new URLSearchParams();
  for (const key of Object.keys(schema?.properties ?? {})) {
    const value = query[key];
    if (key === 'page' || value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(key, String(v));
  }
  const base = `${linkOrigin(request)}${path}`;
  return (page) => {
    search.set('page', String(page));
    return `${base}?${search.toString()}`;
  };
}

/**
 * RFC 8288 Link (first/prev/next/last) and X-Total-Count. A total that is only a lower bound (`exact` false: a
 * search's count stops early, docs/decisions/0014-bounded-search-counts.md) has no `last` and always a `next`.
 */
export function setPageHeaders(request: FastifyRequest, reply: FastifyReply, page: Page, total: number, exact = true): void {
  const lastPage = Math.max(1, Math.ceil(total / page.perPage));
  const pageUrl = pageUrlBuilder(request);
  const link = (n: number, rel: string) => `<${pageUrl(n)}>; rel="${rel}"`;
  const links = [link(1, 'first')];
  if (page.page > 1) links.push(link(exact ? Math.min(page.page - 1, lastPage) : page.page - 1, 'prev'));
  if (!exact || page.page < lastPage) links.push(link(page.page + 1, 'next'));
  if (exact) links.push(link(lastPage, 'last'));
  reply.header('Link', links.join(', '));
  reply.header('X-Total-Count', String(total));
}
