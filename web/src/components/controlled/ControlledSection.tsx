import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api';
import { useAll } from '../../data/hooks';
import { keyOf } from '../../data/keys';
import { ErrorNotice } from '../ErrorNotice';
import { Loading } from '../Fields';
import { CorrectionForm } from './CorrectionForm';
import { Ledger } from './Ledger';
import { MarkForm } from './MarkForm';
import { Reconcile } from './Reconcile';
import { amountWords } from './sentences';
import { UnmarkForm } from './UnmarkForm';

/**
 * The item page's "Controlled substance" section (docs/controlled-substances.md): its schedule and balance, the
 * ledger as sentences with the witness buttons, a correction and a reconciliation; or, for an item that is not
 * controlled, the way to mark it.
 */
export function ControlledSection({ itemId }: { itemId: string }) {
  const [open, setOpen] = useState<'none' | 'mark' | 'correct' | 'reconcile' | 'unmark'>('none');
  // Asked as a list filtered to the item: an item that is not controlled is [] (no 404 logged on every item page).
  const params = { query: { item_id: itemId } };
  const record = useQuery({
    queryKey: keyOf('/controlled-items', params),
    queryFn: () => unwrap(api.GET('/controlled-items', { params })),
  });
  if (record.isError) return <ErrorNotice error={record.error} />;
  if (record.isPending) return <Loading label="Loading the controlled-substance record" size="sm" />;
  const c = record.data[0];
  if (!c) return <NotControlled itemId={itemId} />;
  return (
    <Stack gap="xs" data-testid="controlled-section">
      <Group gap="xs">
        <Title order={3}>Controlled substance</Title>
        <Badge color="grape" variant="light">
          {c.schedule}
        </Badge>
      </Group>
      <Text>
        Balance <strong data-testid="controlled-balance">{amountWords(c.balance, c.unit_size)}</strong>
        {c.waiting_for_witness > 0 ? ` · ${c.waiting_for_witness} waiting for a witness` : ' · every entry witnessed'}
      </Text>
      <Text size="sm" c="dimmed">
        Every use, receipt, move and disposal of it is written here and waits for a second person of the lab to witness it.
      </Text>
      <Group gap="xs">
        <Button size="compact-sm" variant="light" onClick={() => setOpen(open === 'reconcile' ? 'none' : 'reconcile')}>
          Reconcile against a count
        </Button>
        <Button size="compact-sm" variant="subtle" onClick={() => setOpen(open === 'correct' ? 'none' : 'correct')}>
          Correct an entry…
        </Button>
        <Button size="compact-sm" variant="subtle" onClick={() => setOpen(open === 'mark' ? 'none' : 'mark')}>
          Change the schedule…
        </Button>
        <Button size="compact-sm" variant="subtle" color="red" onClick={() => setOpen(open === 'unmark' ? 'none' : 'unmark')}>
          No longer controlled…
        </Button>
      </Group>
      {open === 'mark' && <MarkForm itemId={itemId} current={c.schedule} onDone={() => setOpen('none')} />}
      {open === 'correct' && <CorrectionForm itemId={itemId} onDone={() => setOpen('none')} />}
      {open === 'reconcile' && <Reconcile itemId={itemId} />}
      {open === 'unmark' && <UnmarkForm itemId={itemId} schedule={c.schedule} onDone={() => setOpen('none')} />}
      <Ledger itemId={itemId} />
    </Stack>
  );
}

/**
 * An item that is not controlled: the way to mark it; and when it was controlled before, its ledger, which stays,
 * with the reconciliation and the report of every entry for the registrant's records.
 */
function NotControlled({ itemId }: { itemId: string }) {
  const [open, setOpen] = useState<'none' | 'mark' | 'reconcile'>('none');
  const ledger = useAll('/controlled-items/{itemId}/ledger', { path: { itemId } });
  const before = (ledger.data?.length ?? 0) > 0;
  return (
    <Stack gap="xs" data-testid="controlled-section">
      <Title order={3}>Controlled substance</Title>
      {open === 'mark' ? (
        <MarkForm itemId={itemId} onDone={() => setOpen('none')} />
      ) : (
        <Group gap="xs">
          <Text size="sm" c="dimmed">
            {before ? 'No longer a controlled substance. Its ledger stays, for the records.' : 'Not a controlled substance.'}
          </Text>
          {before && (
            <Button size="compact-sm" variant="light" onClick={() => setOpen(open === 'reconcile' ? 'none' : 'reconcile')}>
              Reconcile against a count
            </Button>
          )}
          <Button size="compact-sm" variant="subtle" onClick={() => setOpen('mark')}>
            Mark as controlled…
          </Button>
        </Group>
      )}
      {open === 'reconcile' && <Reconcile itemId={itemId} />}
      {before && <Ledger itemId={itemId} />}
    </Stack>
  );
}
