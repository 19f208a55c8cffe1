import type { useQueryClient } from '@tanstack/react-query';
import { invalidate } from '../../data/keys';

/** After any controlled-substance change: its record, ledgers, the waiting list and the item (its history too). */
export const refreshControlled = (queryClient: ReturnType<typeof useQueryClient>) =>
  invalidate(
    queryClient,
    '/controlled-items',
    '/controlled-items/{itemId}',
    '/controlled-items/{itemId}/ledger',
    '/controlled-items/{itemId}/reconciliation',
    '/controlled-entries',
    '/labs/{labId}/controlled-reconciliation',
    '/inventory-items/{id}',
    '/inventory-items/{id}/history',
  );
