import { Group, Paper, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api';
import { keyOf } from '../../data/keys';
import { ErrorNotice } from '../ErrorNotice';
import { Loading } from '../Fields';
import { amountWords, entrySentence, type LedgerEntry } from './sentences';
import { WitnessButton } from './WitnessButton';

/** One entry: its sentence, its note, the balance after it, and the witness button while it waits. */
export function EntryCard({ entry, showItem, corrects }: { entry: LedgerEntry; showItem?: boolean; corrects?: number }) {
  return (
    <Paper withBorder p="xs" data-testid="ledger-entry">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <Stack gap={2} style={{ flex: '1 1 16rem' }}>
          <Text size="sm">
            {showItem && entry.item_name ? <strong>{entry.item_name}: </strong> : null}
            {entrySentence(entry)}
          </Text>
          {entry.note && (
            <Text size="xs" c="dimmed">
              “{entry.note}”
            </Text>
          )}
          <Text size="xs" c="dimmed">
            Entry {entry.seq}
            {corrects ? `, correcting entry ${corrects}` : ''} · balance after it {amountWords(entry.balance, entry.unit_size)}
          </Text>
        </Stack>
        <WitnessButton entry={entry} />
      </Group>
    </Paper>
  );
}

/** The item's ledger, newest first, as sentences. */
export function Ledger({ itemId }: { itemId: string }) {
  const params = { path: { itemId }, query: { per_page: 100 } };
  const ledger = useQuery({
    queryKey: keyOf('/controlled-items/{itemId}/ledger', params),
    queryFn: () => unwrap(api.GET('/controlled-items/{itemId}/ledger', { params })),
  });
  if (ledger.isError) return <ErrorNotice error={ledger.error} />;
  if (ledger.isPending) return <Loading label="Loading the ledger" size="sm" />;
  const seqOf = new Map(ledger.data.map((e) => [e.id, e.seq]));
  return (
    <Stack gap={6} component="ol" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Ledger">
      {[...ledger.data].reverse().map((e) => (
        <li key={e.id}>
          <EntryCard entry={e} corrects={e.corrects_id ? seqOf.get(e.corrects_id) : undefined} />
        </li>
      ))}
    </Stack>
  );
}
