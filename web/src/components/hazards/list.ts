import type { paths } from '@labstock/client';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api';
import { keyOf } from '../../data/keys';

/** The hazard classes for the list's filter (GET /hazards/classes): the same for everyone. */
export function useHazardClasses() {
  return useQuery({
    queryKey: keyOf('/hazards/classes'),
    queryFn: () => unwrap(api.GET('/hazards/classes')),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The pictograms of a page of items (GET /hazards/inventory-items, at most 100 ids: a page is 50), by item id. */
export function useItemPictograms(ids: string[]): Map<string, string[]> {
  const query = { ids: ids.join(',') };
  const summaries = useQuery({
    queryKey: keyOf('/hazards/inventory-items', { query }),
    queryFn: () => unwrap(api.GET('/hazards/inventory-items', { params: { query } })),
    enabled: ids.length > 0 && ids.length <= 100,
  });
  return new Map((summaries.data ?? []).map((s) => [s.item_id, s.pictograms]));
}

/** A class id as GET /inventory-items' hazard_class takes it. */
export type HazardClassId = NonNullable<NonNullable<paths['/inventory-items']['get']['parameters']['query']>['hazard_class']>;
