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

/**
 * Keys that pages not yet on the data layer still use for the same endpoints (until they adopt keyOf): a change
 * made here refreshes them too. Delete an entry when no file uses its literal key any more (`grep -rn queryKey web/src`).
 */
const LEGACY: Partial<Record<ApiPath, (pathParams?: Record<string, string>) => QueryKey[]>> = {
  '/order-requests': () => [['order-requests']],
  '/order-requests/awaiting-approval': () => [['awaiting-approval']],
  '/labs': () => [['labs']],
  '/shop/orders': () => [['sales-orders']],
  '/webhooks': () => [['webhooks']],
  '/organization/users': () => [['organization-users']],
  '/organization/labs': () => [['organization-labs']],
  '/organization/labs/{id}/members': (p) => [p?.id ? ['lab-members', p.id] : ['lab-members']],
  '/labs/{id}/approval-settings': (p) => [p?.id ? ['approval-settings', p.id] : ['approval-settings']],
  '/order-requests/{id}': (p) => [p?.id ? ['order-request', p.id] : ['order-request']],
  '/labs/{id}/spend-tracking-codes': (p) =>
    p?.id
      ? [
          ['spend-codes', p.id],
          ['spend-tracking-codes', p.id],
        ]
      : [['spend-codes'], ['spend-tracking-codes']],
};

/** Marks every cached answer of these resources stale and refetches those on screen. */
export function invalidate(queryClient: QueryClient, ...families: (ApiPath | [ApiPath, Record<string, string>])[]): Promise<unknown> {
  return Promise.all(
    families.flatMap((f) => {
      const [path, pathParams] = typeof f === 'string' ? [f, undefined] : f;
      const keys = [familyOf(path, pathParams), ...(LEGACY[path]?.(pathParams) ?? [])];
      return keys.map((queryKey) => queryClient.invalidateQueries({ queryKey }));
    }),
  );
}

/** Puts a fresh answer of a GET with path parameters only (a PUT's answer is the resource) where its readers look. */
export function setData(queryClient: QueryClient, path: ApiPath, pathParams: Record<string, string>, data: unknown): void {
  for (const queryKey of [keyOf(path, { path: pathParams }), ...(LEGACY[path]?.(pathParams) ?? [])])
    queryClient.setQueryData(queryKey, data);
}
