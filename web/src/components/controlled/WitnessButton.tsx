import { Button, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api';
import { idempotent, useSubmission } from '../../forms/submission';
import { useSession } from '../../session';
import { ErrorNotice } from '../ErrorNotice';
import { refreshControlled } from './refresh';
import type { LedgerEntry } from './sentences';

/**
 * "I witnessed this": the second person confirms an entry in their own session (docs/controlled-substances.md).
 * The person who made it is told someone else must; a double-click witnesses once (one Idempotency-Key).
 */
export function WitnessButton({ entry }: { entry: LedgerEntry }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const witness = useSubmission({
    name: `witness-${entry.id}`,
    send: (_, key) =>
      unwrap(api.POST('/controlled-entries/{entryId}/witness', { params: { path: { entryId: entry.id } }, headers: idempotent(key) })),
    onSuccess: () => refreshControlled(queryClient),
  });
  if (entry.witness) return null;
  if (entry.recorded_by.id === session.user.id)
    return (
      <Text size="xs" c="dimmed">
        You made this entry: another person of the lab witnesses it.
      </Text>
    );
  return (
    <>
      <Button size="compact-sm" variant="light" loading={witness.isPending} onClick={() => witness.submit()}>
        I witnessed this
      </Button>
      {witness.isError && <ErrorNotice error={witness.error} title="Not witnessed" />}
    </>
  );
}
