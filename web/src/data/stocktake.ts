import type { components } from '@labstock/client';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api';
import { keyOf } from './keys';

// Stocktake (docs/stocktake.md), through the typed client.

export type Stocktake = components['schemas']['Stocktake'];
export type StocktakeWithLines = components['schemas']['StocktakeWithLines'];
export type StocktakeLine = components['schemas']['StocktakeLine'];

/**
 * One count with its lines (GET /stocktakes/{id}). While it is open it is read again every few seconds, so two
 * people counting one freezer see each other's ticks.
 */
export function useStocktake(id: string) {
  const params = { path: { id } };
  return useQuery({
    queryKey: keyOf('/stocktakes/{id}', params),
    retry: false,
    refetchInterval: (query) => (query.state.data?.status === 'open' ? 5000 : false),
    queryFn: () => unwrap(api.GET('/stocktakes/{id}', { params })),
  });
}
