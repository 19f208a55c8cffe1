import type { QueryClient } from '@tanstack/react-query';
import { invalidate } from '../../data/keys';

/** After a count, an apply or a cancel: the count itself and the lists of counts. */
export const refreshStocktake = (queryClient: QueryClient, id: string) =>
  invalidate(queryClient, ['/stocktakes/{id}', { id }], '/stocktakes');

/** After an apply: the items it changed too. */
export const refreshInventory = (queryClient: QueryClient) => invalidate(queryClient, '/inventory-items', '/inventory-items/{id}');
