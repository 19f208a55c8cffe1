import { Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api';
import { ErrorNotice } from './ErrorNotice';
import { Loading } from './Fields';

/** Who changed what, when, from what to what (GET /inventory-items/{id}/history), newest first. */
export function ItemHistory({ itemId }: { itemId: string }) {
  const history = useQuery({
    queryKey: ['inventory-item-history', itemId],
    queryFn: () => unwrap(api.GET('/inventory-items/{id}/history', { params: { path: { id: itemId } } })),
  });
  if (history.isError) return <ErrorNotice error={history.error} />;
  if (history.isPending) {
    return <Loading label="Loading the history" size="sm" />;
  }
  if (history.data.length === 0) return <Text c="dimmed">No changes yet.</Text>;
  const rows = [...history.data].sort((a, b) => b.changed_at.localeCompare(a.changed_at));
  return (
    <Table.ScrollContainer minWidth={600}>
      <Table aria-label="History" data-testid="history-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th>Who</Table.Th>
            <Table.Th>What</Table.Th>
            <Table.Th>From</Table.Th>
            <Table.Th>To</Table.Th>
            <Table.Th>Note</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((change) => (
            <Table.Tr key={change.id}>
              <Table.Td>{new Date(change.changed_at).toLocaleString()}</Table.Td>
              <Table.Td>{change.changed_by ? `${change.changed_by.first_name} ${change.changed_by.last_name}` : '—'}</Table.Td>
              <Table.Td>{change.field.replaceAll('_', ' ')}</Table.Td>
              <Table.Td>{change.old_value ?? '—'}</Table.Td>
              <Table.Td>{change.new_value ?? '—'}</Table.Td>
              <Table.Td>{change.note ?? ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
