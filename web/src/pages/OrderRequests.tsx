import type { OrderRequest } from '@labstock/client';
import { Anchor, Badge, Button, Chip, Group, SegmentedControl, Stack, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { type Column, DataTable } from '../data/DataTable';
import { usePage } from '../data/hooks';
import { useTableState } from '../data/table-state';
import { OPEN_STATUSES, type OrderStatus, STATUS_COLOR, STATUSES, statusLabel } from '../orders';

const PER_PAGE = 25;

const COLUMNS: Column<OrderRequest>[] = [
  {
    key: 'item',
    header: 'Item',
    phone: 'title',
    cell: (o) => (
      <Anchor component={Link} to={`/order-requests/${o.id}`} fw={500}>
        {o.item_name}
      </Anchor>
    ),
  },
  {
    key: 'status',
    header: 'Status',
    cell: (o) => (
      <Badge color={STATUS_COLOR[o.status]} tt="none">
        {statusLabel(o.status)}
      </Badge>
    ),
  },
  {
    key: 'requested',
    header: 'Requested',
    sort: 'requested_at',
    sortWords: ['Oldest first', 'Newest first'],
    cell: (o) => new Date(o.requested_at).toLocaleDateString(),
  },
  { key: 'requester', header: 'Requested by', cell: (o) => `${o.requested_by.first_name} ${o.requested_by.last_name}`.trim() || '—' },
  { key: 'quantity', header: 'Quantity', cell: (o) => o.quantity },
  { key: 'total', header: 'Total', cell: (o) => formatMoney(o.total_price) },
  { key: 'vendor', header: 'Vendor', cell: (o) => `${o.vendor_name} ${o.catalog_number}` },
  { key: 'lab', header: 'Lab', cell: (o) => o.lab.name },
];

/** Order requests of the person's labs: by status, searched, the person's own, newest first, every page of them. */
export function OrderRequestsPage() {
  const table = useTableState({ defaultSort: '-requested_at', perPage: PER_PAGE });
  const status = table.get('status') ?? 'open';
  const mine = table.get('mine') === '1';
  const q = table.get('q') ?? '';
  const [typed, setTyped] = useState(q);
  const [debounced] = useDebouncedValue(typed, 300);
  // Back and forward change q in the address: the field follows.
  useEffect(() => setTyped(q), [q]);
  useEffect(() => {
    if (debounced.trim() !== q) table.set({ q: debounced.trim() || null });
  }, [debounced, q, table.set]);
  const statuses = status === 'open' ? [...OPEN_STATUSES] : status === 'all' ? [] : [status as OrderStatus];
  const orders = usePage('/order-requests', {
    query: {
      page: table.page,
      per_page: PER_PAGE,
      // An order the API does not know (an edited address) is the default rather than an error.
      sort: table.sort === 'requested_at' ? 'requested_at' : '-requested_at',
      ...(statuses.length ? { status: statuses } : {}),
      ...(q ? { q } : {}),
      ...(mine ? { requested_by: 'me' } : {}),
    },
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
        onChange={(value) => table.set({ status: value === 'open' ? null : value })}
        data={[
          { value: 'open', label: 'Open' },
          ...STATUSES.map((s) => ({ value: s, label: statusLabel(s) })),
          { value: 'all', label: 'All' },
        ]}
        style={{ alignSelf: 'flex-start', maxWidth: '100%', overflowX: 'auto' }}
      />
      <Group align="end" gap="sm">
        <TextInput
          label="Search"
          placeholder="Item, vendor or catalog number"
          type="search"
          value={typed}
          onChange={(e) => setTyped(e.currentTarget.value)}
          w={320}
          maw="100%"
        />
        <Chip checked={mine} onChange={(on) => table.set({ mine: on ? '1' : null })} mb={6}>
          Mine
        </Chip>
      </Group>
      <DataTable
        label="Order requests"
        testId="orders-table"
        emptyTestId="no-orders"
        query={orders}
        columns={COLUMNS}
        rowKey={(o) => o.id}
        page={table.page}
        perPage={PER_PAGE}
        onPage={table.setPage}
        sort={table.sort}
        onSort={table.setSort}
        noun={['request', 'requests']}
        empty={q || mine ? 'No request matches.' : 'No requests here.'}
        loadingLabel="Loading requests"
        minWidth={860}
      />
    </Stack>
  );
}

/** Money as the API gives it (minor units and an ISO currency), in the browser's number format. */
export function formatMoney(money: { amount: string; currency: string }): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency: money.currency }).resolvedOptions().maximumFractionDigits ?? 2;
  const major = Number(money.amount) / 10 ** digits;
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: money.currency }).format(major);
}
