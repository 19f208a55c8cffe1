import type { OrderRequest } from '@labstock/client';
import { Anchor, Badge, Button, Stack, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../api';
import { PlacementErrorNotice } from '../components/placement/Findings';
import { checkApproval, usePlacementGate } from '../components/placement/gate';
import { PlacementDialog } from '../components/placement/PlacementDialog';
import { type Column, DataTable } from '../data/DataTable';
import { usePage } from '../data/hooks';
import { invalidateOrder, setData } from '../data/keys';
import { useTableState } from '../data/table-state';
import { idempotent, useSubmission } from '../forms/submission';
import { formatMoney } from './OrderRequests';

const PER_PAGE = 25;

const COLUMNS: Column<OrderRequest>[] = [
  {
    key: 'item',
    header: 'Item',
    phone: 'title',
    cell: (o) => (
      <>
        <Anchor component={Link} to={`/order-requests/${o.id}`} fw={500}>
          {o.item_name}
        </Anchor>{' '}
        {o.is_urgent && (
          <Badge color="red.9" variant="outline" size="sm">
            Urgent
          </Badge>
        )}
      </>
    ),
  },
  { key: 'total', header: 'Total', cell: (o) => formatMoney(o.total_price) },
  { key: 'lab', header: 'Lab', cell: (o) => o.lab.name },
  { key: 'requester', header: 'Requested by', cell: (o) => `${o.requested_by.first_name} ${o.requested_by.last_name}` },
  { key: 'requested', header: 'Requested', cell: (o) => new Date(o.requested_at).toLocaleDateString() },
  { key: 'action', header: 'Action', bare: true, cell: (o) => <ApproveButton order={o} /> },
];

/**
 * The requests waiting for this person's approval (GET /order-requests/awaiting-approval, docs/ordering.md): the
 * server decides what is in it (their labs as approver or manager, never their own), so for anyone else it is empty.
 * Every page of it, oldest first as the server lists it.
 */
export function ApprovalQueuePage() {
  const table = useTableState({ perPage: PER_PAGE });
  const queue = usePage('/order-requests/awaiting-approval', { query: { page: table.page, per_page: PER_PAGE } });
  return (
    <Stack>
      <Title order={2}>Awaiting my approval</Title>
      <DataTable
        label="Awaiting my approval"
        testId="approvals-table"
        emptyTestId="no-approvals"
        query={queue}
        columns={COLUMNS}
        rowKey={(o) => o.id}
        page={table.page}
        perPage={PER_PAGE}
        onPage={table.setPage}
        noun={['request waiting', 'requests waiting']}
        empty="Nothing is waiting for your approval."
        loadingLabel="Loading the requests awaiting approval"
      />
    </Stack>
  );
}

function ApproveButton({ order }: { order: OrderRequest }) {
  const queryClient = useQueryClient();
  const approve = useSubmission<OrderRequest>({
    name: `approve-${order.id}`,
    send: (_, key) =>
      unwrap(
        api.PUT('/order-requests/{id}', { params: { path: { id: order.id } }, body: { status: 'APPROVED' }, headers: idempotent(key) }),
      ),
    onSuccess: (data) => {
      setData(queryClient, '/order-requests/{id}', { id: data.id }, data);
      return invalidateOrder(queryClient, data.id, '/order-requests/awaiting-approval');
    },
  });
  // What approving would run into (a control area's limit, docs/safety.md), shown before it is sent.
  const gate = usePlacementGate();
  return (
    <Stack gap={4} align="flex-start">
      <Button
        size="xs"
        aria-label={`Approve ${order.item_name}`}
        loading={approve.isPending || gate.asking}
        onClick={() =>
          gate.ask(
            () => checkApproval(order.id),
            () => approve.submit(),
          )
        }
      >
        Approve
      </Button>
      {approve.isError && <PlacementErrorNotice error={approve.error} title="Not approved" />}
      <PlacementDialog gate={gate} action={`Approve ${order.item_name}`} />
    </Stack>
  );
}
