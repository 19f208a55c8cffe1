import type { components } from '@labstock/client';
import { Anchor, Badge, Button, Group, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { type Column, DataTable } from '../../data/DataTable';
import { usePage } from '../../data/hooks';
import { useTableState } from '../../data/table-state';
import { formatMoney } from '../OrderRequests';
import { formatDateTime, LINE_COLOR, type LineStatus, lineStatusLabel } from './shop';

type SalesOrder = components['schemas']['SalesOrder'];
const PER_PAGE = 25;

const COLUMNS: Column<SalesOrder>[] = [
  {
    key: 'order',
    header: 'Order',
    phone: 'title',
    cell: (o) => (
      <>
        <Anchor component={Link} to={`/shop/orders/${o.id}`} fw={500}>
          {o.key}
        </Anchor>
        {o.is_test && (
          <Badge ml="xs" color="gray" variant="outline">
            Test
          </Badge>
        )}
      </>
    ),
  },
  { key: 'lab', header: 'Lab', cell: (o) => o.lab.name },
  { key: 'placed', header: 'Placed', cell: (o) => formatDateTime(o.placed_at) },
  { key: 'total', header: 'Total', cell: (o) => formatMoney(o.total) },
  {
    key: 'lines',
    header: 'Lines',
    cell: (o) => (
      <Group gap={4}>
        {Object.entries(countBy(o.items.map((i) => i.status))).map(([status, n]) => (
          <Badge key={status} color={LINE_COLOR[status as LineStatus]} variant="light">
            {n} {lineStatusLabel(status as LineStatus)}
          </Badge>
        ))}
      </Group>
    ),
  },
];

/** The shop orders of the person's labs (GET /shop/orders), oldest first as the API lists them, every page of them. */
export function ShopOrdersPage() {
  const table = useTableState({ perPage: PER_PAGE });
  const orders = usePage('/shop/orders', { query: { page: table.page, per_page: PER_PAGE } });
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
      <DataTable
        label="Shop orders"
        testId="sales-orders-table"
        emptyTestId="no-sales-orders"
        query={orders}
        columns={COLUMNS}
        rowKey={(o) => o.id}
        page={table.page}
        perPage={PER_PAGE}
        onPage={table.setPage}
        noun={['order', 'orders']}
        empty="No shop orders yet."
        loadingLabel="Loading shop orders"
      />
    </Stack>
  );
}

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}
