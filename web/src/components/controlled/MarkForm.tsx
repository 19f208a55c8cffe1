import { Autocomplete, Button, Group } from '@mantine/core';
import { useState } from 'react';
import { api, unwrap } from '../../api';
import { idempotent } from '../../forms/submission';
import { ErrorNotice } from '../ErrorNotice';
import { useLedgerForm } from './ledger-submission';

// The schedule is free text in the words of its jurisdiction (docs/controlled-substances.md); these are suggestions.
const SCHEDULES = [
  'DEA Schedule I',
  'DEA Schedule II',
  'DEA Schedule III',
  'DEA Schedule IV',
  'DEA Schedule V',
  'UK Class A',
  'UK Class B',
  'UK Class C',
  'UK Schedule 2',
  'UK Schedule 3',
];

/** Marks the item controlled (or changes its schedule): org admins and the lab's managers. */
export function MarkForm({ itemId, current, onDone }: { itemId: string; current?: string; onDone: () => void }) {
  const [schedule, setSchedule] = useState(current ?? '');
  const {
    submission: mark,
    submit,
    tried,
  } = useLedgerForm({
    name: 'mark-controlled',
    send: (key) =>
      unwrap(
        api.PUT('/controlled-items/{itemId}', {
          params: { path: { itemId } },
          headers: idempotent(key),
          body: { schedule: schedule.trim() },
        }),
      ),
    ready: () => schedule.trim() !== '',
    onDone,
  });
  return (
    <form onSubmit={submit} aria-label="Mark as a controlled substance">
      <Group align="flex-start" gap="xs" wrap="wrap">
        <Autocomplete
          label="Schedule or class"
          placeholder="DEA Schedule II"
          data={SCHEDULES}
          value={schedule}
          onChange={setSchedule}
          error={tried && !schedule.trim() ? 'Say which schedule or class it is in' : undefined}
          w={240}
        />
        <Button type="submit" loading={mark.isPending} mt={24}>
          {current ? 'Change the schedule' : 'Mark as controlled'}
        </Button>
        <Button variant="subtle" mt={24} onClick={onDone}>
          Cancel
        </Button>
      </Group>
      {mark.isError && <ErrorNotice error={mark.error} title="Not marked" />}
    </form>
  );
}
