import { Alert, Button } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { LabstockError } from '../api';
import { invalidateItem } from './QuantityEditor';

/**
 * A change sent with an ETag that no longer matched (412): someone changed the item meanwhile. As in QuantityEditor,
 * nothing is overwritten; the person reloads the current values and decides again.
 */
export function StaleNotice({ itemId, onReloaded }: { itemId: string; onReloaded: () => void }) {
  const queryClient = useQueryClient();
  return (
    <Alert color="yellow" title="Changed by someone else" role="alert">
      This item changed since you opened it, so your change was not saved.{' '}
      <Button size="compact-xs" variant="light" onClick={() => invalidateItem(queryClient, itemId).then(onReloaded)}>
        Show the current values
      </Button>
    </Alert>
  );
}

/** Whether a failed change was a 412 (the ETag did not match). */
export const isStale = (err: unknown): boolean => err instanceof LabstockError && err.status === 412;
