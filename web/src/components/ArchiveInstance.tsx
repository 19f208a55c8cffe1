import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../api';
import { idempotent, useSubmission } from '../forms/submission';
import { ErrorNotice } from './ErrorNotice';
import { invalidateItem } from './QuantityEditor';
import { isStale, StaleNotice } from './StaleNotice';

/**
 * Archives an instance (used up, expired, broken): POST …/archive with the item's ETag and the reason the person
 * gives, which the item's history keeps. It leaves the active instances and the item's quantity. Asks once, with the
 * reason, before doing it; sent once however often it is clicked.
 */
export function ArchiveInstance(props: { itemId: string; instanceId: string; etag: string; label: string }) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');
  const archive = useSubmission({
    name: `archive-${props.instanceId}`,
    send: (why: string | null, key) =>
      unwrap(
        api.POST('/inventory-items/{itemId}/instances/{itemInstanceId}/archive', {
          params: { path: { itemId: props.itemId, itemInstanceId: props.instanceId }, header: { 'if-match': props.etag } },
          body: { reason: why },
          headers: idempotent(key),
        }),
      ),
    onSuccess: () => invalidateItem(queryClient, props.itemId),
  });
  if (archive.isError && isStale(archive.error)) return <StaleNotice itemId={props.itemId} onReloaded={() => archive.reset()} />;
  if (!asking) {
    return (
      <Button size="xs" variant="light" color="red" onClick={() => setAsking(true)} aria-label={`Archive ${props.label}`}>
        Archive
      </Button>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    archive.submit(reason.trim() || null);
  };
  return (
    <Stack gap={4} component="form" onSubmit={submit}>
      <TextInput
        size="xs"
        label="Why does it leave?"
        placeholder="Used up, expired, broken…"
        value={reason}
        onChange={(e) => setReason(e.currentTarget.value)}
        maxLength={2000}
      />
      <Group gap={4} wrap="nowrap">
        <Button type="submit" size="xs" color="red" loading={archive.isPending} aria-label={`Confirm archiving ${props.label}`}>
          Archive it
        </Button>
        <Button size="xs" variant="default" onClick={() => setAsking(false)}>
          Keep
        </Button>
      </Group>
      {archive.isError && <ErrorNotice error={archive.error} title="Not archived" />}
    </Stack>
  );
}
