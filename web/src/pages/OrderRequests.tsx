import { Anchor, Badge, Button, Center, Group, Loader, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api, unwrap } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { STATUS_COLOR, STATUSES, statusLabel } from '../orders';

/** Order requests of the person's labs, by status. */
export function OrderRequestsPage() {
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? 'open';
  const statuses = status === 'open' ? ['CREATED', 'APPROVED', 'ORDERED', 'BACKORDERED'] : status === 'all' ? [] : [status];
  const orders = useQuery({
    queryKey: ['order-requests', status],
    placeholderData: keepPreviousData,
    queryFn: () =>
      unwrap(api.GET('/order-requests', { params: { query: { per_page: 100, ...(statuses.length ? { status: statuses } : {}) } } })),
  });
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Order requests</Title>
        <Button component={Link} to="/order-requests/new">
          New request
        </Button>
      </Group>
      <SegmentedControl
        aria-label="Status"
        value={status}
        onChange={(value) => setParams(value === 'open' ? {} : { status: value }, { replace: true })}
        data={[
          { value: 'open', label: 'Open' },
          ...STATUSES.map((s) => ({ value: s, label: statusLabel(s) })),
          { value: 'all', label: 'All' },
        ]}
        style={{ alignSelf: 'flex-start', maxWidth: '100%', overflowX: 'auto' }}
      />
      {orders.isError && <ErrorNotice error={orders.error} />}
      {orders.isPending && (
        <Center p="lg">
          <Loader role="status" aria-label="Loading requests" />
        </Center>
      )}
      {orders.data?.length === 0 && <Text data-testid="no-orders">No requests here.</Text>}
      {orders.data && orders.data.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped aria-label="Order requests" data-testid="orders-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Item</Table.Th>
                <Table.Th>Vendor</Table.Th>
                <Table.Th>Quantity</Table.Th>
                <Table.Th>Total</Table.Th>
                <Table.Th>Lab</Table.Th>
                <Table.Th>Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {orders.data.map((order) => (
                <Table.Tr key={order.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/order-requests/${order.id}`}>
                      {order.item_name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    {order.vendor_name} {order.catalog_number}
                  </Table.Td>
                  <Table.Td>{order.quantity}</Table.Td>
                  <Table.Td>{formatMoney(order.total_price)}</Table.Td>
                  <Table.Td>{order.lab.name}</Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLOR[order.status]} tt="none">
                      {statusLabel(order.status)}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

/** Money as the API gives it (minor units and an ISO currency), in the browser's number format. */
export function formatMoney(money: { amount: string; currency: string }): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency: money.currency }).resolvedOptions().maximumFractionDigits ?? 2;
  const major = Number(money.amount) / 10 ** digits;
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: money.currency }).format(major);
}
