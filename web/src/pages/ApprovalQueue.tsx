import { Anchor, Badge, Button, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Fields';
import { formatMoney } from './OrderRequests';

const PER_PAGE = 100;

/**
 * The requests waiting for this person's approval (GET /order-requests/awaiting-approval, docs/ordering.md): the
 * server decides what is in it (their labs as approver or manager, never their own), so for anyone else it is empty.
 */
export function ApprovalQueuePage() {
  const queryClient = useQueryClient();
  const queue = useQuery({
    queryKey: ['awaiting-approval'],
    queryFn: () => unwrap(api.GET('/order-requests/awaiting-approval', { params: { query: { per_page: PER_PAGE } } })),
  });
  const approve = useMutation({
    mutationFn: (id: string) => unwrap(api.PUT('/order-requests/{id}', { params: { path: { id } }, body: { status: 'APPROVED' } })),
    onSuccess: (data) => {
      queryClient.setQueryData(['order-request', data.id], data);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: ['awaiting-approval'] }),
        queryClient.invalidateQueries({ queryKey: ['order-requests'] }),
      ]);
    },
  });
  return (
    <Stack>
      <Title order={2}>Awaiting my approval</Title>
      {approve.isError && <ErrorNotice error={approve.error} title="Not approved" />}
      {queue.isError && <ErrorNotice error={queue.error} />}
      {queue.isPending && <Loading label="Loading the requests awaiting approval" />}
      {queue.data?.length === 0 && <Text data-testid="no-approvals">Nothing is waiting for your approval.</Text>}
      {queue.data && queue.data.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped aria-label="Awaiting my approval" data-testid="approvals-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Item</Table.Th>
                <Table.Th>Total</Table.Th>
                <Table.Th>Lab</Table.Th>
                <Table.Th>Requested by</Table.Th>
                <Table.Th>Requested</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Action</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {queue.data.map((order) => (
                <Table.Tr key={order.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/order-requests/${order.id}`}>
                      {order.item_name}
                    </Anchor>{' '}
                    {order.is_urgent && (
                      <Badge color="red.9" variant="outline" size="sm">
                        Urgent
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{formatMoney(order.total_price)}</Table.Td>
                  <Table.Td>{order.lab.name}</Table.Td>
                  <Table.Td>
                    {order.requested_by.first_name} {order.requested_by.last_name}
                  </Table.Td>
                  <Table.Td>{new Date(order.requested_at).toLocaleDateString()}</Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      aria-label={`Approve ${order.item_name}`}
                      loading={approve.isPending && approve.variables === order.id}
                      onClick={() => approve.mutate(order.id)}
                    >
                      Approve
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {queue.data?.length === PER_PAGE && (
        <Text size="sm" c="dimmed">
          The oldest {PER_PAGE} are shown; approve some to see the rest.
        </Text>
      )}
    </Stack>
  );
}
