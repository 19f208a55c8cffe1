import { Anchor, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useAll } from '../../data/hooks';
import { ErrorNotice } from '../ErrorNotice';
import { Loading } from '../Fields';
import { LabReconciliation } from './LabReconciliation';
import { EntryCard } from './Ledger';
import { amountWords } from './sentences';

/**
 * Controlled substances (docs/controlled-substances.md): the entries waiting for a witness in the caller's labs,
 * where the second person confirms them, and the controlled items with their balances.
 */
export function ControlledPage() {
  const waiting = useAll('/controlled-entries', {});
  const items = useAll('/controlled-items', {});
  return (
    <Stack>
      <Title order={2}>Controlled substances</Title>
      <Title order={3}>Waiting for a witness</Title>
      {waiting.isError && <ErrorNotice error={waiting.error} />}
      {waiting.isPending ? (
        <Loading label="Loading the entries" size="sm" />
      ) : waiting.data?.length === 0 ? (
        <Text c="dimmed">Nothing waits for a witness.</Text>
      ) : (
        <Stack gap={6} component="ol" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Waiting for a witness">
          {waiting.data?.map((e) => (
            <li key={e.id}>
              <EntryCard entry={e} showItem />
            </li>
          ))}
        </Stack>
      )}
      <Title order={3}>Controlled items</Title>
      {items.isError && <ErrorNotice error={items.error} />}
      {items.isPending ? (
        <Loading label="Loading the controlled items" size="sm" />
      ) : items.data?.length === 0 ? (
        <Text c="dimmed">No item is marked as a controlled substance.</Text>
      ) : (
        <Table aria-label="Controlled items">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Item</Table.Th>
              <Table.Th>Schedule</Table.Th>
              <Table.Th>Balance</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.data?.map((c) => (
              <Table.Tr key={c.item_id}>
                <Table.Td>
                  <Anchor component={Link} to={`/inventory/items/${c.item_id}`}>
                    {c.item_name}
                  </Anchor>
                  {c.waiting_for_witness > 0 && (
                    <Text size="xs" c="dimmed">
                      {c.waiting_for_witness} waiting for a witness
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{c.schedule}</Table.Td>
                <Table.Td>{amountWords(c.balance, c.unit_size)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {items.data && <LabReconciliation labIds={[...new Set(items.data.map((c) => c.lab_id))]} />}
    </Stack>
  );
}
