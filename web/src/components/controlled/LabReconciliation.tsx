import type { components } from '@labstock/client';
import { Anchor, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../../api';
import { useLabs } from '../../data/hooks';
import { keyOf } from '../../data/keys';
import { ErrorNotice } from '../ErrorNotice';
import { Loading } from '../Fields';
import { amountWords, dayWords } from './sentences';

type Row = components['schemas']['ControlledLabReconciliation']['items'][number];

/** "None", "0.5 mL missing", "1 mL more than the ledger": the difference in words. */
function differenceWords(r: Row): string {
  if (r.difference === null) return '—';
  if (r.difference === '0') return 'None';
  return r.difference.startsWith('-')
    ? `${amountWords(r.difference.slice(1), r.unit_size)} missing`
    : `${amountWords(r.difference, r.unit_size)} more`;
}

/**
 * A lab's reconciliation on the Controlled substances page (docs/controlled-substances.md): every controlled item of
 * the lab with its balance, its last count and the difference, and the same as CSV and PDF. Only the labs that have
 * a controlled item are offered.
 */
export function LabReconciliation({ labIds }: { labIds: string[] }) {
  const labs = useLabs();
  const offered = (labs.data ?? []).filter((l) => labIds.includes(l.id));
  const [chosen, setChosen] = useState<string | null>(null);
  const labId = chosen && labIds.includes(chosen) ? chosen : (offered[0]?.id ?? '');
  const params = { path: { labId } };
  const report = useQuery({
    queryKey: keyOf('/labs/{labId}/controlled-reconciliation', params),
    enabled: labId !== '',
    queryFn: () => unwrap(api.GET('/labs/{labId}/controlled-reconciliation', { params })),
  });
  if (labIds.length === 0) return null;
  const file = (format: 'csv' | 'pdf') => `/labs/${encodeURIComponent(labId)}/controlled-reconciliation.${format}`;
  return (
    <Stack gap="xs" data-testid="lab-reconciliation">
      <Title order={3}>Reconciliation{report.data ? ` of ${report.data.lab.name}` : ''}</Title>
      <Text size="sm" c="dimmed">
        Each controlled item's balance in its ledger against its last count (the latest count of its shelf that counted it).
      </Text>
      {labs.isError && <ErrorNotice error={labs.error} />}
      {offered.length > 1 && (
        <Select
          label="Lab"
          data={offered.map((l) => ({ value: l.id, label: l.name }))}
          value={labId || null}
          onChange={setChosen}
          allowDeselect={false}
          w={260}
        />
      )}
      {report.isError && <ErrorNotice error={report.error} />}
      {labId && report.isPending && <Loading label="Loading the reconciliation" size="sm" />}
      {report.data && (
        <>
          <Table aria-label="Reconciliation of the lab's controlled items">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Item</Table.Th>
                <Table.Th>Balance</Table.Th>
                <Table.Th>Last count</Table.Th>
                <Table.Th>Difference</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.data.items.map((r) => (
                <Table.Tr key={r.item_id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/inventory/items/${r.item_id}`}>
                      {r.item_name}
                    </Anchor>
                    <Text size="xs" c="dimmed">
                      {r.schedule}
                    </Text>
                  </Table.Td>
                  <Table.Td>{amountWords(r.ledger_balance, r.unit_size)}</Table.Td>
                  <Table.Td>
                    {r.last_count
                      ? `${amountWords(r.last_count.counted, r.unit_size)} on ${dayWords(r.last_count.counted_at)}`
                      : 'Never counted'}
                  </Table.Td>
                  <Table.Td fw={r.difference !== null && r.difference !== '0' ? 700 : undefined}>{differenceWords(r)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Group gap="md">
            <Anchor size="sm" href={file('pdf')} download>
              Reconciliation of the lab (PDF)
            </Anchor>
            <Anchor size="sm" href={file('csv')} download>
              Reconciliation of the lab (CSV)
            </Anchor>
          </Group>
        </>
      )}
    </Stack>
  );
}
