import { Anchor, Button, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api';
import { keyOf } from '../../data/keys';
import { DecimalInput } from '../../forms/DecimalInput';
import { parseDecimal } from '../../forms/decimal';
import { ErrorNotice } from '../ErrorNotice';
import { EntryCard } from './Ledger';
import { amountWords } from './sentences';

/** Reconciliation: what the ledger expects against what is counted now, and what still waits for a witness. */
export function Reconcile({ itemId }: { itemId: string }) {
  const [text, setText] = useState('');
  const [counted, setCounted] = useState<string | undefined>(undefined);
  const [tried, setTried] = useState(false);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const parsed = parseDecimal(text);
  const params = { path: { itemId }, query: counted === undefined ? {} : { counted } };
  const report = useQuery({
    queryKey: keyOf('/controlled-items/{itemId}/reconciliation', params),
    queryFn: () => unwrap(api.GET('/controlled-items/{itemId}/reconciliation', { params })),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!parsed.error) setCounted(parsed.value);
  };
  const r = report.data;
  const base = `/controlled-items/${encodeURIComponent(itemId)}/reconciliation`;
  const csv = `${base}.csv${counted ? `?counted=${encodeURIComponent(counted)}` : ''}`;
  // The registrant's report over a period (every entry, the opening balance, lines to sign); an empty day: its default.
  const pdfQuery = new URLSearchParams();
  if (counted) pdfQuery.set('counted', counted);
  if (from) pdfQuery.set('from', from);
  if (to) pdfQuery.set('to', to);
  const badPeriod = from !== '' && to !== '' && to < from;
  const pdf = `${base}.pdf${pdfQuery.toString() ? `?${pdfQuery}` : ''}`;
  return (
    <Stack gap="xs">
      <form onSubmit={submit} aria-label="Reconcile against a count">
        <Group align="flex-start" gap="xs">
          <DecimalInput label="Counted now" placeholder="4.5" showError={tried} value={text} onChange={setText} w={140} />
          <Button type="submit" variant="light" mt={24}>
            Compare
          </Button>
        </Group>
      </form>
      {report.isError && <ErrorNotice error={report.error} />}
      {r && (
        <>
          <Table withTableBorder maw={420} aria-label="Reconciliation">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th>The ledger expects</Table.Th>
                <Table.Td>{amountWords(r.ledger_balance, r.unit_size)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>The inventory records</Table.Th>
                <Table.Td>{amountWords(r.recorded_quantity, r.unit_size)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Counted</Table.Th>
                <Table.Td>{r.counted === null ? 'Not counted yet' : amountWords(r.counted, r.unit_size)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Difference</Table.Th>
                <Table.Td data-testid="reconciliation-difference">
                  {r.difference === null
                    ? '—'
                    : r.difference === '0'
                      ? 'None: the count matches'
                      : r.difference.startsWith('-')
                        ? `${amountWords(r.difference.slice(1), r.unit_size)} missing`
                        : `${amountWords(r.difference, r.unit_size)} more than expected`}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <Text size="sm">
            {r.unwitnessed.length === 0
              ? 'Every entry is witnessed.'
              : `${r.unwitnessed.length} ${r.unwitnessed.length === 1 ? 'entry waits' : 'entries wait'} for a witness:`}
          </Text>
          {r.unwitnessed.map((e) => (
            <EntryCard key={e.id} entry={e} />
          ))}
          <Group gap="xs" align="flex-end" wrap="wrap">
            <TextInput label="Report from" type="date" value={from} onChange={(e) => setFrom(e.currentTarget.value)} w={160} />
            <TextInput
              label="to"
              type="date"
              value={to}
              onChange={(e) => setTo(e.currentTarget.value)}
              error={badPeriod ? 'The period ends before it starts' : undefined}
              w={160}
            />
          </Group>
          <Text size="xs" c="dimmed">
            Without dates the report covers the whole ledger up to today.
          </Text>
          <Group gap="md">
            {badPeriod ? (
              <Text size="sm" c="dimmed">
                Report with every entry (PDF)
              </Text>
            ) : (
              <Anchor size="sm" href={pdf} download>
                Report with every entry (PDF)
              </Anchor>
            )}
            <Anchor size="sm" href={csv} download>
              Download the reconciliation (CSV)
            </Anchor>
          </Group>
        </>
      )}
    </Stack>
  );
}
