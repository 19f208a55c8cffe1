import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { type CallResult, unwrap } from './errors.js';
import type { paths } from './generated/schema.js';

/** How requests authenticate: an API token, or the browser's sign-in session. */
export interface LabstockClientOptions {
  /** The service's address, e.g. `https://labstock.example.org` (its APP_URL). */
  baseUrl: string;
  /** An API token, sent as the `Access-Token` header. */
  token?: string;
  /**
   * Use the sign-in session cookie (`labstock_session`) instead of a token: requests go with
   * `credentials: 'include'`, and unsafe methods (POST, PUT, PATCH, DELETE) carry `X-CSRF-Token` when
   * `csrfToken` gives one (a string, or a function read before each request).
   */
  session?: boolean | { csrfToken?: string | (() => string | undefined | Promise<string | undefined>) };
  /** Headers for every request (a User-Agent, say). */
  headers?: Record<string, string>;
  /** A fetch to use instead of the global one. */
  fetch?: (request: Request) => Promise<Response>;
}

type GetOperation<P extends keyof paths> = paths[P] extends { get: infer Op } ? Op : never;
type OkJson<Op> = Op extends { responses: { 200: { content: { 'application/json': infer Body } } } } ? Body : never;
type ListBody<P extends keyof paths> = OkJson<GetOperation<P>>;

/** The paths whose GET answers a JSON array: the lists, paged with `page` and `per_page`. */
export type ListPath = {
  [P in keyof paths]-?: [ListBody<P>] extends [never] ? never : ListBody<P> extends readonly unknown[] ? P : never;
}[keyof paths];
/** One element of a list. */
export type ListItem<P extends ListPath> = ListBody<P> extends readonly (infer Item)[] ? Item : never;
/** The parameters of a list's GET (query, and path parameters where the path has some). */
export type ListParams<P extends ListPath> = GetOperation<P> extends { parameters: infer Params } ? Params : never;

export interface PaginateInit<P extends ListPath> {
  params?: ListParams<P>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}
type PaginateArgs<P extends ListPath> =
  ListParams<P> extends { path: Record<string, unknown> } ? [init: PaginateInit<P> & { params: ListParams<P> }] : [init?: PaginateInit<P>];

/** The openapi-fetch client for every operation of the API, plus the list iterator. */
export interface LabstockClient extends Client<paths> {
  /**
   * Every element of a list, page after page: it follows the `Link` header's `rel="next"` until there is none.
   * A failed page throws a LabstockError. `per_page` (up to 100) sets how many each request brings.
   */
  paginate<P extends ListPath>(path: P, ...init: PaginateArgs<P>): AsyncGenerator<ListItem<P>, void, undefined>;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A client for one service and one way of authenticating. */
export function createLabstockClient(options: LabstockClientOptions): LabstockClient {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers['Access-Token'] = options.token;
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.session ? { credentials: 'include' as const } : {}),
  });
  const csrf = typeof options.session === 'object' ? options.session.csrfToken : undefined;
  if (csrf !== undefined) client.use(csrfHeader(csrf));

  const get = client.GET as unknown as (path: string, init: object) => Promise<CallResult<unknown[]>>;
  async function* paginate(path: string, init: PaginateInit<ListPath> = {}): AsyncGenerator<unknown, void, undefined> {
    const params = (init.params ?? {}) as { query?: Record<string, unknown> };
    let query = { ...params.query };
    for (;;) {
      const page = await get(path, { ...init, params: { ...params, query } });
      yield* (await unwrap(page)) ?? [];
      const next = nextPage(page.response.headers.get('link'));
      // A next page that does not move forward would loop for ever; the server never sends one.
      if (next === null || next <= Number(query.page ?? 1)) return;
      query = { ...query, page: next };
    }
  }

  return Object.assign(client, { paginate }) as unknown as LabstockClient;
}

function csrfHeader(token: string | (() => string | undefined | Promise<string | undefined>)): Middleware {
  return {
    async onRequest({ request }) {
      if (!UNSAFE.has(request.method)) return undefined;
      const value = typeof token === 'function' ? await token() : token;
      if (value) request.headers.set('X-CSRF-Token', value);
      return request;
    },
  };
}

/** The links of an RFC 8288 `Link` header by relation: `{ next: 'https://…?page=3', last: … }`. */
export function parseLinkHeader(header: string | null): Record<string, string> {
  const links: Record<string, string> = {};
  for (const part of (header ?? '').split(/,\s*(?=<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!match) continue;
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(match[2]!);
    for (const name of (rel?.[1] ?? rel?.[2] ?? '').split(/\s+/).filter(Boolean)) links[name.toLowerCase()] ??= match[1]!;
  }
  return links;
}

/**
 * The page number of the `rel="next"` link, or null on the last page. Only the number is taken from the link:
 * the link is absolute, built from the service's APP_URL, which need not be the address this client reaches it at.
 */
function nextPage(header: string | null): number | null {
  const next = parseLinkHeader(header).next;
  if (!next) return null;
  const page = Number(new URL(next, 'http://base.invalid').searchParams.get('page'));
  return Number.isInteger(page) && page > 0 ? page : null;
}
