import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { api, unwrap } from '../../api';
import { idempotent } from '../../forms/submission';
import { ErrorNotice } from '../ErrorNotice';
import { useLedgerForm } from './ledger-submission';

/**
 * No longer a controlled substance (docs/controlled-substances.md): with the reason, which the ledger's closing entry
 * records; the ledger stays. Org admins and the lab's managers; sent once (one Idempotency-Key per submission).
 */
export function UnmarkForm({ itemId, schedule, onDone }: { itemId: string; schedule: string; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const {
    submission: unmark,
    submit,
    tried,
  } = useLedgerForm({
    name: 'unmark-controlled',
    send: (key) =>
      unwrap(
        api.POST('/controlled-items/{itemId}/unmark', {
          params: { path: { itemId } },
          headers: idempotent(key),
          body: { reason: reason.trim() },
        }),
      ),
    ready: () => reason.trim() !== '',
    onDone,
  });
  return (
    <form onSubmit={submit} aria-label="No longer a controlled substance">
      <Stack gap="xs" maw={520}>
        <Text size="sm">
          It will no longer be listed under {schedule}. Its ledger stays as it is, closed by an entry with your reason, which another person
          witnesses.
        </Text>
        <Textarea
          label="Why is it no longer controlled?"
          placeholder="Rescheduled by the authority on …"
          autosize
          minRows={2}
          maxLength={1000}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={tried && !reason.trim() ? 'Say why: the ledger records it' : undefined}
        />
        <Group gap="xs">
          <Button type="submit" color="red" variant="light" loading={unmark.isPending}>
            No longer controlled
          </Button>
          <Button variant="subtle" onClick={onDone}>
            Cancel
          </Button>
        </Group>
        {unmark.isError && <ErrorNotice error={unmark.error} title="Still controlled" />}
      </Stack>
    </form>
  );
}
