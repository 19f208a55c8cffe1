import { Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api';
import { ErrorNotice } from './ErrorNotice';
import { Loading } from './Fields';

/**
 * The request's history (GET /order-requests/{id}/history), newest first: its moves, detail changes (UPDATED, the
 * comment naming each field) and budget notes. Under the ['order-requests'] key, so every change to the request
 * (a move, an edit, receiving) reads it again.
 */
export function OrderHistory({ orderId }: { orderId: string }) {
  const history = useQuery({
    queryKey: ['order-requests', orderId, 'history'],
    queryFn: () => unwrap(api.GET('/order-requests/{id}/history', { params: { path: { id: orderId } } })),
  });
  return (
    <>
      <Title order={3}>History</Title>
      {history.isError && <ErrorNotice error={history.error} />}
      {history.isPending && <Loading label="Loading the history" size="sm" />}
      {history.data && (
        <Table.ScrollContainer minWidth={520}>
          <Table aria-label="History" data-testid="order-history">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>What</Table.Th>
                <Table.Th>Note</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {[...history.data].reverse().map((entry) => (
                <Table.Tr key={`${entry.created_at}-${entry.type}-${entry.created_by.id}`}>
                  <Table.Td>{new Date(entry.created_at).toLocaleString()}</Table.Td>
                  <Table.Td>
                    {entry.created_by.first_name} {entry.created_by.last_name}
                  </Table.Td>
                  <Table.Td>{entry.type}</Table.Td>
                  <Table.Td>
                    {entry.comment ?? (
                      <Text span c="dimmed">
                        —
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
