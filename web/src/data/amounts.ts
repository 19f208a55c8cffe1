import type { components } from '@labstock/client';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api';
import { keyOf } from './keys';

// Amounts in real units (docs/hazard-reports.md "Amounts"), through the typed client.

export type ItemAmount = components['schemas']['ItemAmount'];
export type Amount = components['schemas']['Amount'];

/** An amount in words; a size that cannot be read says so rather than showing a number. */
export const amountWords = (a: Amount | undefined): string => (a === undefined ? '…' : (a.text ?? 'unknown'));

/**
 * The amounts of a page of items in one call (GET /inventory-item-amounts). Keyed by each item's quantity and unit
 * size too, so an edit of either reads them again.
 */
export function useItemAmounts(items: { id: string; quantity: string; unit_size: string | null }[]) {
  const ids = items.map((i) => i.id);
  const params = { query: { item_id: ids } };
  return useQuery({
    queryKey: [...keyOf('/inventory-item-amounts', params), items.map((i) => `${i.quantity}|${i.unit_size ?? ''}`)],
    enabled: ids.length > 0,
    queryFn: async () => {
      const list = await unwrap(api.GET('/inventory-item-amounts', { params }));
      return new Map(list.map((a) => [a.item_id, a.total]));
    },
  });
}

/** One item's amount and its instances' (GET /inventory-items/{id}/amount), read again with each new version. */
export function useItemAmount(id: string, etag: string) {
  const params = { path: { id } };
  return useQuery({
    queryKey: [...keyOf('/inventory-items/{id}/amount', params), etag],
    queryFn: () => unwrap(api.GET('/inventory-items/{id}/amount', { params })),
  });
}
