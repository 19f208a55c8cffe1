import { type QueryKey, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, LabstockError, unwrap } from '../api';
import { type ApiPath, keyOf } from '../data/keys';
import { useLastLab } from '../last-lab';
import { OPEN_STATUSES } from '../orders';

// What needs the signed-in person (docs/web.md, "Home"): each a count the API gives with a list of one
// (`per_page=1`, read from X-Total-Count), never a capped list counted in the browser. The home page's cards and the
// navigation's badges share these queries (web/src/components/Shell.tsx), so a page load asks each once. Each key is
// the list's own (keyOf: its path first), so `invalidate(queryClient, path)` after an approval, a receipt or a
// put-away refreshes the count with the list.

/** A list's total; `atLeast` when the server stopped counting (a search's count is bounded, no rel="last"). */
export interface Count {
  total: number;
  atLeast: boolean;
}

type Listed = Promise<{ response: Response; data?: unknown; error?: unknown }>;

export async function countOf(call: Listed): Promise<Count> {
  await unwrap(call as Promise<{ response: Response; data: unknown; error?: undefined }>);
  const { response } = await call;
  const total = Number(response.headers.get('x-total-count') ?? 0);
  const link = response.headers.get('link') ?? '';
  return { total, atLeast: link !== '' && !/rel="last"/.test(link) };
}

export const formatCount = (count: Count | undefined): string => (count ? `${count.total}${count.atLeast ? '+' : ''}` : '…');

/** How far ahead "expiring" looks: the longest common reminder (`1MONTH`, docs/alerts.md), as a date to filter by. */
export const EXPIRY_WINDOW_DAYS = 30;

/** The day after today plus the window, local time: `expiring_before` is exclusive, and already expired counts. */
export function expiringBefore(now = new Date()): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + EXPIRY_WINDOW_DAYS + 1);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

const STALE = 30_000;

/** A count's key: the key of the list it counts (one element a page), then 'count' (the answer is a Count, not rows). */
const countKey = (path: ApiPath, query: object): QueryKey => [...keyOf(path, { query: { ...query, per_page: 1 } }), 'count'];

export function useApprovalCount() {
  return useQuery({
    queryKey: countKey('/order-requests/awaiting-approval', {}),
    staleTime: STALE,
    queryFn: () => countOf(api.GET('/order-requests/awaiting-approval', { params: { query: { per_page: 1 } } })),
  });
}

/** The person's own requests still on their way (`requested_by=me`), all of them or in one status. */
export function useOpenRequestCount(status?: (typeof OPEN_STATUSES)[number]) {
  const statuses = status ? [status] : [...OPEN_STATUSES];
  return useQuery({
    queryKey: countKey('/order-requests', { status: statuses, requested_by: 'me' }),
    staleTime: STALE,
    queryFn: () => countOf(api.GET('/order-requests', { params: { query: { per_page: 1, status: statuses, requested_by: 'me' } } })),
  });
}

/** Instances received without a lot, an expiry or a place, in every lab the person sees (docs/api.md, "Put-away"). */
export function usePutAwayCount() {
  return useQuery({
    queryKey: countKey('/put-away', {}),
    staleTime: STALE,
    queryFn: () => countOf(api.GET('/put-away', { params: { query: { per_page: 1 } } })),
  });
}

export function useExpiringCount(labId: string | null) {
  const before = expiringBefore();
  return useQuery({
    queryKey: countKey('/inventory-items', { lab_id: labId, expiring_before: before }),
    enabled: !!labId,
    staleTime: STALE,
    queryFn: () => countOf(api.GET('/inventory-items', { params: { query: { lab_id: labId!, expiring_before: before, per_page: 1 } } })),
  });
}

export function useBelowMinimumCount(labId: string | null) {
  return useQuery({
    queryKey: countKey('/inventory-items', { lab_id: labId, below_minimum: true }),
    enabled: !!labId,
    staleTime: STALE,
    queryFn: () => countOf(api.GET('/inventory-items', { params: { query: { lab_id: labId!, below_minimum: true, per_page: 1 } } })),
  });
}

/**
 * The counts of the navigation's badges: the approvals, the open requests, and the items needing care in the lab the
 * person last worked in. Only a lab they chose: their "first" lab changes under them as labs are created and
 * archived, and a count asked for a lab archived meanwhile would be a 404. A remembered lab that answers 404 (they
 * left it, it was archived) is forgotten.
 */
export function useNavigationCounts() {
  const { remembered, remember } = useLastLab();
  const approvals = useApprovalCount();
  const open = useOpenRequestCount();
  const expiring = useExpiringCount(remembered);
  const below = useBelowMinimumCount(remembered);
  const putAway = usePutAwayCount();
  const gone = [expiring.error, below.error].some((e) => e instanceof LabstockError && e.status === 404);
  useEffect(() => {
    if (gone && remembered) remember(null);
  });
  return { approvals: approvals.data, open: open.data, expiring: expiring.data, below: below.data, putAway: putAway.data };
}

/** The items with an active instance at a location or anywhere below it (the locations page's tree). */
export function useLocationCount(labId: string, locationId: string) {
  return useQuery({
    queryKey: countKey('/inventory-items', { lab_id: labId, location_id: locationId }),
    staleTime: STALE,
    queryFn: () => countOf(api.GET('/inventory-items', { params: { query: { lab_id: labId, location_id: locationId, per_page: 1 } } })),
  });
}
