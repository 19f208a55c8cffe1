import { Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Fields';
import { formatMoney } from '../OrderRequests';
import { formatDateTime, LINE_COLOR, type LineStatus, lineStatusLabel } from './shop';

/** The shop orders of the person's labs (GET /shop/orders), newest first as the API lists them. */
export function ShopOrdersPage() {
  const orders = useQuery({
    queryKey: ['sales-orders'],
    queryFn: () => unwrap(api.GET('/shop/orders', { params: { query: { per_page: 100 } } })),
  });
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Shop orders</Title>
        <Group gap="xs">
          <Button variant="default" component={Link} to="/shop">
            Catalogue
          </Button>
          <Button component={Link} to="/shop/checkout">
            Check out
          </Button>
        </Group>
      </Group>
      {orders.isError && <ErrorNotice error={orders.error} />}
      {orders.isPending && <Loading label="Loading shop orders" />}
      {orders.data?.length === 0 && <Text data-testid="no-sales-orders">No shop orders yet.</Text>}
      {orders.data && orders.data.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped aria-label="Shop orders" data-testid="sales-orders-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Order</Table.Th>
                <Table.Th>Lab</Table.Th>
                <Table.Th>Placed</Table.Th>
                <Table.Th>Total</Table.Th>
                <Table.Th>Lines</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {orders.data.map((o) => (
                <Table.Tr key={o.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/shop/orders/${o.id}`}>
                      {o.key}
                    </Anchor>
                    {o.is_test && (
                      <Badge ml="xs" color="gray" variant="outline">
                        test
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{o.lab.name}</Table.Td>
                  <Table.Td>{formatDateTime(o.placed_at)}</Table.Td>
                  <Table.Td>{formatMoney(o.total)}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {Object.entries(countBy(o.items.map((i) => i.status))).map(([status, n]) => (
                        <Badge key={status} color={LINE_COLOR[status as LineStatus]} variant="light">
                          {n} {lineStatusLabel(status as LineStatus)}
                        </Badge>
                      ))}
                    </Group>
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

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}
