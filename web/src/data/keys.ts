import type { paths } from '@labstock/client';
import type { QueryClient, QueryKey } from '@tanstack/react-query';

// Every cached answer is filed under the API path it came from, then its parameters (docs/web.md, "Data layer"):
// `keyOf('/order-requests', { query: { status: ['CREATED'] } })` is `['/order-requests', {query: {…}}]`. One
// endpoint is one family whatever page asks for it, and `invalidate(qc, '/order-requests')` refreshes every view
// of it: there are no hand-written key strings to drift apart (two families once cached the spend codes).

export type ApiPath = keyof paths;

/** Parameters with their keys in order and undefined, empty arrays and empty objects left out: equal asks, equal keys. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = canonical((value as Record<string, unknown>)[key]);
    if (v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) continue;
    out[key] = v;
  }
  return out;
}

/** The query key of a GET: its path, then its parameters (`{ path, query }` as the typed client takes them). */
export function keyOf(path: ApiPath, params?: object): QueryKey {
  const p = canonical(params ?? {}) as Record<string, unknown>;
  return Object.keys(p).length === 0 ? [path] : [path, p];
}

/**
 * The keys of one resource: every ask of `path` (any parameters), or only those with these path parameters
 * (`familyOf('/labs/{id}/spend-tracking-codes', { id })`: that lab's codes, on any day).
 */
export function familyOf(path: ApiPath, pathParams?: Record<string, string>): QueryKey {
  return pathParams ? [path, { path: canonical(pathParams) }] : [path];
}

/** Marks every cached answer of these resources stale and refetches those on screen. */
export function invalidate(queryClient: QueryClient, ...families: Family[]): Promise<unknown> {
  return Promise.all(
    families.flatMap((f) => {
      const [path, pathParams] = typeof f === 'string' ? [f, undefined] : f;
      return queryClient.invalidateQueries({ queryKey: familyOf(path, pathParams) });
    }),
  );
}

/** Puts a fresh answer of a GET with path parameters only (a PUT's answer is the resource) where its readers look. */
export function setData(queryClient: QueryClient, path: ApiPath, pathParams: Record<string, string>, data: unknown): void {
  queryClient.setQueryData(keyOf(path, { path: pathParams }), data);
}

type Family = ApiPath | [ApiPath, Record<string, string>];

/**
 * After a request changed (a move, an edit, a receipt): every list of requests (and the counts, whose keys are the
 * lists'), and the request's history and delivery; `also` names what else the change touched.
 */
export function invalidateOrder(queryClient: QueryClient, orderId: string, ...also: Family[]): Promise<unknown> {
  return invalidate(
    queryClient,
    '/order-requests',
    ['/order-requests/{id}/history', { id: orderId }],
    ['/order-requests/{id}/delivery', { id: orderId }],
    ...also,
  );
}
