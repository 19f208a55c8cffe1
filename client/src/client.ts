import createClient, {
  type Client,
  type ClientPathsWithMethod,
  type FetchResponse,
  type MaybeOptionalInit,
  type Middleware,
} from 'openapi-fetch';
import { type CallResult, unwrap } from './errors.js';
import type { paths } from './generated/schema.js';
import { parseLinkHeader, type ResponseMeta, responseMeta } from './meta.js';
import { createTransport, type RequestOptions, type TransportOptions } from './transport.js';

/** How requests authenticate (an API token, or the browser's sign-in session), and how they are sent. */
export interface LabstockClientOptions extends TransportOptions {
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
}

type Verb = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options';
// biome-ignore lint/complexity/noBannedTypes: `{} extends Pick<T, K>` is how TypeScript tells an optional key
type RequiredKeysOf<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];
/** The init of a call: openapi-fetch's (params, body, headers, signal, …) plus the per-call RequestOptions. */
type CallInit<Init> = [RequiredKeysOf<Init>] extends [never] ? [init?: Init & RequestOptions] : [init: Init & RequestOptions];

/** What each call resolves to: openapi-fetch's `{ data, error, response }` and the response's `meta`. */
export type LabstockResult<Operation, Init> = FetchResponse<Operation & Record<string | number, unknown>, Init, `${string}/${string}`> & {
  meta: ResponseMeta;
};

/** One HTTP method of the client, typed by the generated `paths`. */
export type LabstockMethod<M extends Verb> = <
  Path extends ClientPathsWithMethod<Client<paths>, M>,
  Init extends MaybeOptionalInit<paths[Path], M>,
>(
  url: Path,
  ...init: CallInit<Init>
) => Promise<LabstockResult<paths[Path][M], Init>>;

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

export interface PaginateInit<P extends ListPath> extends RequestOptions {
  params?: ListParams<P>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}
type PaginateArgs<P extends ListPath> =
  ListParams<P> extends { path: Record<string, unknown> } ? [init: PaginateInit<P> & { params: ListParams<P> }] : [init?: PaginateInit<P>];

/**
 * Every operation of the API, typed by the generated `paths`: `GET`, `POST`, `PUT`, `PATCH`, `DELETE`, `HEAD`,
 * `OPTIONS` resolve to `{ data, error, response, meta }` and never throw for an HTTP error (`unwrap` does); a
 * network failure or timeout throws a LabstockConnectionError once the retries are spent.
 */
export interface LabstockClient extends Pick<Client<paths>, 'use' | 'eject'> {
  GET: LabstockMethod<'get'>;
  PUT: LabstockMethod<'put'>;
  POST: LabstockMethod<'post'>;
  DELETE: LabstockMethod<'delete'>;
  PATCH: LabstockMethod<'patch'>;
  HEAD: LabstockMethod<'head'>;
  OPTIONS: LabstockMethod<'options'>;
  /**
   * Every element of a list, page after page: it follows the `Link` header's `rel="next"` until there is none.
   * A failed page throws a LabstockError. `per_page` (up to 100) sets how many each request brings.
   */
  paginate<P extends ListPath>(path: P, ...init: PaginateArgs<P>): AsyncGenerator<ListItem<P>, void, undefined>;
  /**
   * The same client (same service, credentials and middleware) with other defaults for the calls made through
   * it: `api.withOptions({ timeout: 120_000, maxRetries: 5 }).POST(…)`.
   */
  withOptions(options: RequestOptions & Pick<TransportOptions, 'initialRetryDelay' | 'maxRetryDelay' | 'onRetry'>): LabstockClient;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const VERBS = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const;

/** A client for one service and one way of authenticating. */
export function createLabstockClient(options: LabstockClientOptions): LabstockClient {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers['Access-Token'] = options.token;
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    headers,
    ...(options.session ? { credentials: 'include' as const } : {}),
  });
  const csrf = typeof options.session === 'object' ? options.session.csrfToken : undefined;
  if (csrf !== undefined) client.use(csrfHeader(csrf));
  return wrap(client, options);
}

type AnyCall = (path: string, init?: Record<string, unknown>) => Promise<CallResult<unknown>>;

/** The client's methods over `client`, sending through a transport made of `options` and each call's own. */
function wrap(client: Client<paths>, options: TransportOptions): LabstockClient {
  const transport = createTransport(options);
  const methods = Object.fromEntries(
    VERBS.map((verb) => {
      const call = client[verb] as unknown as AnyCall;
      const method = async (path: string, init: Record<string, unknown> = {}) => {
        const { timeout, maxRetries, ...rest } = init as RequestOptions & Record<string, unknown>;
        const asDefault = timeout === undefined && maxRetries === undefined;
        const fetch = asDefault ? transport : createTransport({ ...options, ...defined({ timeout, maxRetries }) });
        const result = await call(path, { ...rest, fetch });
        return Object.assign(result, { meta: responseMeta(result.response) });
      };
      return [verb, method];
    }),
  ) as unknown as Pick<LabstockClient, (typeof VERBS)[number]>;

  const get = methods.GET as unknown as AnyCall;
  async function* paginate(path: string, init: PaginateInit<ListPath> = {}): AsyncGenerator<unknown, void, undefined> {
    const params = (init.params ?? {}) as { query?: Record<string, unknown> };
    let query = { ...params.query };
    for (;;) {
      const page = await get(path, { ...init, params: { ...params, query } });
      yield* ((await unwrap(page)) as unknown[] | undefined) ?? [];
      const next = nextPage(page.response.headers.get('link'));
      // A next page that does not move forward would loop for ever; the server never sends one.
      if (next === null || next <= Number(query.page ?? 1)) return;
      query = { ...query, page: next };
    }
  }

  return {
    ...methods,
    use: (...middleware: Middleware[]) => client.use(...middleware),
    eject: (...middleware: Middleware[]) => client.eject(...middleware),
    paginate: paginate as LabstockClient['paginate'],
    withOptions: (overrides) => wrap(client, { ...options, ...defined(overrides) }),
  };
}

/** `value` without its undefined properties, so that spreading it keeps the defaults it does not set. */
function defined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
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
