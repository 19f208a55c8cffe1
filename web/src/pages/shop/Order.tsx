import { Anchor, Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { api, LabstockError, unwrap } from '../../api';
import { ErrorNotice } from '../../components/ErrorNotice';
import { FieldGrid, Loading } from '../../components/Fields';
import { keyOf } from '../../data/keys';
import { statusLabel } from '../../orders';
import { NotFoundPage } from '../NotFound';
import { formatMoney } from '../OrderRequests';
import { formatDateTime, LINE_COLOR, lineStatusTitle, type SalesOrder, UUID } from './shop';

type Line = SalesOrder['items'][number];

/** One shop order (its app_url, /app/shop/orders/{id}; `#item-{lineId}` opens at a line): charges, lines, shipments. */
export function ShopOrderPage() {
  const { id = '' } = useParams();
  const { hash } = useLocation();
  const order = useQuery({
    queryKey: keyOf('/shop/orders/{id}', { path: { id } }),
    enabled: UUID.test(id),
    queryFn: () => unwrap(api.GET('/shop/orders/{id}', { params: { path: { id } } })),
  });
  const loaded = order.isSuccess;
  useEffect(() => {
    // The line an app_url names exists only once the order has loaded; the browser's own jump came too early.
    if (loaded && hash) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [loaded, hash]);
  if (!UUID.test(id) || (order.error instanceof LabstockError && order.error.status === 404)) return <NotFoundPage what="shop order" />;
  if (order.isError) return <ErrorNotice error={order.error} />;
  if (order.isPending) return <Loading label="Loading the shop order" />;
  const o = order.data;
  return (
    <Stack>
      <Anchor component={Link} to="/shop/orders" size="sm">
        ← Shop orders
      </Anchor>
      <Group>
        <Title order={2} data-testid="sales-order-key">
          {o.key}
        </Title>
        {o.is_test && (
          <Badge color="gray" variant="outline">
            Test order
          </Badge>
        )}
      </Group>
      <FieldGrid
        fields={[
          ['Lab', o.lab.name],
          ['Placed by', `${o.placed_by.first_name} ${o.placed_by.last_name}`],
          ['Placed', formatDateTime(o.placed_at)],
          ['Payment', o.payment_method === 'PURCHASE_ORDER' ? `Purchase order ${o.purchase_order_number ?? ''}` : 'Credit card'],
          ['Subtotal', formatMoney(o.subtotal)],
          ['Shipping', formatMoney(o.shipping)],
          ['Handling', formatMoney(o.handling)],
          ['Tax', formatMoney(o.tax)],
          ['Total', formatMoney(o.total)],
        ]}
      />
      <Title order={3}>Lines</Title>
      {o.items.map((line) => (
        <LineCard key={line.id} line={line} />
      ))}
    </Stack>
  );
}

function LineCard({ line }: { line: Line }) {
  return (
    <Paper withBorder p="sm" id={`item-${line.id}`} data-testid="sales-order-line" component="section" aria-label={line.product.item_name}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={4}>{line.product.item_name}</Title>
          <Badge color={LINE_COLOR[line.status]} data-testid="line-status">
            {lineStatusTitle(line.status)}
          </Badge>
        </Group>
        <FieldGrid
          fields={[
            ['Catalog number', line.product.catalog_number],
            ['Quantity', `${line.quantity} × ${line.product.unit.amount} ${line.product.unit.symbol}`],
            ['Unit price', formatMoney(line.sell_price)],
            ['Estimated shipment', line.estimated_shipment_date],
            ['Estimated delivery', line.estimated_delivery_date],
          ]}
        />
        <Text size="sm">
          Request:{' '}
          <Anchor component={Link} to={`/order-requests/${line.request.id}`}>
            {line.request.item_name}
          </Anchor>{' '}
          ({statusLabel(line.request.status)})
        </Text>
        {line.shipments.length === 0 ? (
          <Text size="sm" c="dimmed">
            Not shipped yet.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={520}>
            <Table aria-label={`Shipments of ${line.product.item_name}`} data-testid="shipments-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Carrier</Table.Th>
                  <Table.Th>Tracking</Table.Th>
                  <Table.Th>Quantity</Table.Th>
                  <Table.Th>Shipped</Table.Th>
                  <Table.Th>Delivered</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {line.shipments.map((s) => (
                  <Table.Tr key={s.id}>
                    <Table.Td>{s.carrier}</Table.Td>
                    <Table.Td>{s.tracking}</Table.Td>
                    <Table.Td>{s.quantity}</Table.Td>
                    <Table.Td>{formatDateTime(s.shipped_at)}</Table.Td>
                    <Table.Td>{formatDateTime(s.delivered_at) ?? 'on its way'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}
