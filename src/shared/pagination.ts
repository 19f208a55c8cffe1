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

/** RFC 8288 Link (first/prev/next/last) and X-Total-Count, built from the request's own URL. */
export function setPageHeaders(request: FastifyRequest, reply: FastifyReply, page: Page, total: number): void {
  const lastPage = Math.max(1, Math.ceil(total / page.perPage));
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  const link = (n: number, rel: string) => {
    url.searchParams.set('page', String(n));
    return `<${url.toString()}>; rel="${rel}"`;
  };
  const links = [link(1, 'first')];
  if (page.page > 1) links.push(link(Math.min(page.page - 1, lastPage), 'prev'));
  if (page.page < lastPage) links.push(link(page.page + 1, 'next'));
  links.push(link(lastPage, 'last'));
  reply.header('Link', links.join(', '));
  reply.header('X-Total-Count', String(total));
}
