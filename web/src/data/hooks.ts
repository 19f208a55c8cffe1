import type { components, ListItem, ListParams, ListPath } from '@labstock/client';
import { keepPreviousData, type UseQueryResult, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api';
import { keyOf } from './keys';

// Hooks per resource on the typed client (docs/web.md, "Data layer"). Two ways to read a list, and no third:
// - usePage: one page and the list's total (X-Total-Count), for tables people page through (DataTable);
// - useAll: every element, page after page through the client's paginate() (the Link header's next), for pickers
//   and small lists a page needs whole. Nothing is cut at 100: a list is whole or it is paged with its total.

export interface Page<T> {
  rows: T[];
  total: number;
  /** The count is bounded (a large search, docs/decisions/0014-bounded-search-counts.md): at least `total`. */
  atLeast?: boolean;
}

/** The API's maximum page size: useAll asks for as few pages as it can. */
export const MAX_PER_PAGE = 100;

type LooseGet = (path: string, init: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
const get = api.GET as unknown as LooseGet;

/** One page of a list and its total. The key is the path and parameters (page and per_page included). */
export function usePage<P extends ListPath>(
  path: P,
  params: ListParams<P>,
  options: { enabled?: boolean; refetchInterval?: number | false } = {},
): UseQueryResult<Page<ListItem<P>>> {
  return useQuery({
    queryKey: [...keyOf(path, params as object), 'page'],
    placeholderData: keepPreviousData,
    ...options,
    queryFn: async ({ signal }) => {
      const call = get(path, { params, signal });
      const rows = (await unwrap(call)) as ListItem<P>[];
      const { headers } = (await call).response;
      const header = headers.get('x-total-count');
      // A bounded count leaves out Link's `last` while there is a `next` (docs/decisions/0014-bounded-search-counts.md).
      const link = headers.get('link');
      const atLeast = Boolean(link?.includes('rel="next"') && !link.includes('rel="last"'));
      return { rows, total: header === null ? rows.length : Number(header), ...(atLeast ? { atLeast } : {}) };
    },
  });
}

/** Every element of a list (all pages, in the list's order). */
export function useAll<P extends ListPath>(
  path: P,
  params: ListParams<P> | undefined,
  options: { enabled?: boolean } = {},
): UseQueryResult<ListItem<P>[]> {
  const withSize = { ...(params as object), query: { per_page: MAX_PER_PAGE, ...(params as { query?: object } | undefined)?.query } };
  return useQuery({
    queryKey: [...keyOf(path, params as object | undefined), 'all'],
    ...options,
    queryFn: async ({ signal }) => {
      const all: ListItem<P>[] = [];
      const paginate = api.paginate as unknown as (p: string, init: object) => AsyncGenerator<ListItem<P>>;
      for await (const item of paginate(path, { params: withSize, signal })) all.push(item);
      return all;
    },
  });
}

// Resources more than one page reads.

/** The labs the person sees (GET /labs), all of them. */
export const useLabs = (options: { enabled?: boolean } = {}) => useAll('/labs', {}, options);

/** A lab's item types (GET /types?lab_id=), all of them; nothing is asked without a lab. */
export const useTypes = (labId: string | null | undefined) => useAll('/types', { query: { lab_id: labId ?? '' } }, { enabled: !!labId });

/** The organization's people (GET /organization/users: org admins only), all of them. */
export const usePeople = (options: { enabled?: boolean } = {}) => useAll('/organization/users', {}, options);

/** One lab (GET /labs/{id}); nothing is asked without an id or when `enabled` is false. */
export function useLab(labId: string | null | undefined, options: { enabled?: boolean } = {}) {
  const params = { path: { id: labId ?? '' } };
  return useQuery({
    queryKey: keyOf('/labs/{id}', params),
    enabled: !!labId && options.enabled !== false,
    queryFn: () => unwrap(api.GET('/labs/{id}', { params })),
  });
}

/** The caller's role and the lab's approval rule (GET /labs/{id}/approval-settings). */
export function useApprovalSettings(labId: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: keyOf('/labs/{id}/approval-settings', { path: { id: labId } }),
    ...options,
    queryFn: () => unwrap(api.GET('/labs/{id}/approval-settings', { params: { path: { id: labId } } })),
  });
}

/** A lab's spend tracking codes with their spend in the period containing `on` (today when omitted): one key family. */
export function useSpendCodes(labId: string | null | undefined, on?: string, options: { keepPrevious?: boolean } = {}) {
  const params = { path: { id: labId ?? '' }, query: on ? { on } : {} };
  return useQuery({
    queryKey: keyOf('/labs/{id}/spend-tracking-codes', params),
    enabled: !!labId,
    // The settings' table keeps the codes on screen while another day's spend loads.
    ...(options.keepPrevious ? { placeholderData: keepPreviousData } : {}),
    queryFn: () => unwrap(api.GET('/labs/{id}/spend-tracking-codes', { params })),
  });
}

/** A lab's members with their lab role (GET /organization/labs/{id}/members; the API answers them whole). */
export function useLabMembers(labId: string) {
  const params = { path: { id: labId } };
  return useQuery({
    queryKey: keyOf('/organization/labs/{id}/members', params),
    queryFn: () => unwrap(api.GET('/organization/labs/{id}/members', { params })),
  });
}

export type Lab = components['schemas']['Lab'];
