import { Button, Group } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api';
import { ErrorNotice } from './ErrorNotice';
import { invalidateItem } from './QuantityEditor';
import { isStale, StaleNotice } from './StaleNotice';

/**
 * Archives an instance (used up, thrown away): POST …/archive with the item's ETag. It leaves the active instances
 * and the item's quantity; the history keeps it. Asks once before doing it.
 */
export function ArchiveInstance(props: { itemId: string; instanceId: string; etag: string; label: string }) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const archive = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/inventory-items/{itemId}/instances/{itemInstanceId}/archive', {
          params: { path: { itemId: props.itemId, itemInstanceId: props.instanceId }, header: { 'if-match': props.etag } },
        }),
      ),
    onSuccess: () => invalidateItem(queryClient, props.itemId),
  });
  if (archive.isError && isStale(archive.error)) return <StaleNotice itemId={props.itemId} onReloaded={() => archive.reset()} />;
  if (!asking) {
    return (
      <Button size="xs" variant="subtle" color="red" onClick={() => setAsking(true)} aria-label={`Archive ${props.label}`}>
        Archive
      </Button>
    );
  }
  return (
    <>
      <Group gap={4} wrap="nowrap">
        <Button
          size="xs"
          color="red"
          loading={archive.isPending}
          onClick={() => archive.mutate()}
          aria-label={`Confirm archiving ${props.label}`}
        >
          Archive it
        </Button>
        <Button size="xs" variant="default" onClick={() => setAsking(false)}>
          Keep
        </Button>
      </Group>
      {archive.isError && <ErrorNotice error={archive.error} title="Not archived" />}
    </>
  );
}
