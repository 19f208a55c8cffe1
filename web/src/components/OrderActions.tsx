import type { OrderRequest } from '@labstock/client';
import { Alert, Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../api';
import { useApprovalSettings } from '../data/hooks';
import { invalidateOrder, setData } from '../data/keys';
import { idempotent, useSubmission } from '../forms/submission';
import { ACTION, type ApprovalSettings, mayApprove, NEXT, needsApproval, type OrderStatus } from '../orders';
import { formatMoney } from '../pages/OrderRequests';
import { useSession } from '../session';
import { ErrorNotice } from './ErrorNotice';
import { Loading } from './Fields';
import { PlacementErrorNotice } from './placement/Findings';
import { checkApproval, usePlacementGate } from './placement/gate';
import { PlacementDialog } from './placement/PlacementDialog';

/** After any move: the request as answered, and every list, history and delivery that shows it read again. */
function moved(queryClient: QueryClient, data: OrderRequest) {
  setData(queryClient, '/order-requests/{id}', { id: data.id }, data);
  return invalidateOrder(queryClient, data.id, '/order-requests/awaiting-approval');
}

/**
 * The moves the transition table allows (web/src/orders.ts), narrowed by the lab's approval rule (docs/ordering.md):
 * "Approve" only for someone who may approve and is not the requester, "Mark ordered" from CREATED held back while
 * the request waits for approval, with the reason. "Mark ordered" asks for the PO and confirmation numbers and the
 * expected date in one dialog; "Reject" (for those who approve) asks why. Each is sent once (useSubmission).
 */
export function OrderActions({ order, onReceive, receiving }: { order: OrderRequest; onReceive: () => void; receiving: boolean }) {
  const queryClient = useQueryClient();
  const { user } = useSession();
  const settings = useApprovalSettings(order.lab.id);
  const [dialog, setDialog] = useState<'order' | 'reject' | null>(null);
  const move = useSubmission<OrderRequest, OrderStatus>({
    name: 'move',
    renewOnSuccess: true,
    send: (status, key) =>
      unwrap(api.PUT('/order-requests/{id}', { params: { path: { id: order.id } }, body: { status }, headers: idempotent(key) })),
    onSuccess: (data) => moved(queryClient, data),
  });
  // Approving asks first what it would run into (a control area's limit, docs/safety.md) and shows it.
  const gate = usePlacementGate();
  // The buttons wait for the rule, so "Mark ordered" never shows enabled for a request that waits for approval.
  if (settings.isPending) return <Loading label="Loading the lab's approval rule" size="sm" />;
  const rule: ApprovalSettings | undefined = settings.data;
  const ruled = rule !== undefined && rule.rule !== 'none';
  const needs = ruled && needsApproval(rule, order.total_price);
  const mine = order.requested_by.id === user.id;
  // Unknown rule (it failed to load): no Approve, so no one is offered what the server may refuse as self-approval.
  const approves = rule !== undefined && (!ruled || mayApprove(rule, user.id, order.requested_by.id));
  const rejects = rule !== undefined && mayApprove(rule, user.id, order.requested_by.id) && ['CREATED', 'APPROVED'].includes(order.status);
  const waiting = order.status === 'CREATED' && needs;
  const moves = NEXT[order.status].filter((s) => s !== 'APPROVED' || approves);
  return (
    <Stack gap="xs">
      {settings.isError && <ErrorNotice error={settings.error} title="The lab's approval rule could not be read" />}
      {ruled && (
        <Alert
          color={waiting ? 'yellow' : 'gray'}
          title="Approval"
          data-testid="approval-note"
          // Yellow's title colour is 2.7:1 on its fill (axe); the text colour is not (web/src/theme.ts).
          styles={{ title: { color: 'var(--mantine-color-text)' } }}
        >
          <Text size="sm">{ruleText(rule)}</Text>
          {order.status === 'CREATED' && (
            <Text size="sm" id="approval-reason">
              {needs
                ? `This request needs approval before it is ordered${approves ? '.' : mine ? ': someone else among the lab’s approvers approves it.' : ': the lab’s approvers and managers approve it.'}`
                : 'This request does not need approval.'}
            </Text>
          )}
        </Alert>
      )}
      <Group>
        {moves.map((status) =>
          status === 'RECEIVED' ? (
            <Button key={status} color="green" onClick={onReceive} disabled={receiving}>
              {ACTION[status]}…
            </Button>
          ) : status === 'ORDERED' ? (
            <Button
              key={status}
              // Held back, not hidden, while it waits for approval: the note above says why.
              disabled={waiting}
              aria-describedby={waiting ? 'approval-reason' : undefined}
              onClick={() => setDialog('order')}
            >
              {ACTION[status]}…
            </Button>
          ) : (
            <Button
              key={status}
              variant={status === 'CANCELLED' ? 'light' : 'filled'}
              color={status === 'CANCELLED' ? 'red' : undefined}
              loading={(move.isPending && move.variables === status) || (status === 'APPROVED' && gate.asking)}
              disabled={move.isPending || gate.asking}
              onClick={() =>
                status === 'APPROVED'
                  ? gate.ask(
                      () => checkApproval(order.id),
                      () => move.submit(status),
                    )
                  : move.submit(status)
              }
            >
              {ACTION[status]}
            </Button>
          ),
        )}
        {rejects && (
          <Button variant="outline" color="red" onClick={() => setDialog('reject')}>
            Reject…
          </Button>
        )}
      </Group>
      {move.isError && <PlacementErrorNotice error={move.error} title="Not changed" />}
      <PlacementDialog gate={gate} action="Approve" />
      <Modal opened={dialog === 'order'} onClose={() => setDialog(null)} title="Mark ordered" closeButtonProps={{ 'aria-label': 'Close' }}>
        {dialog === 'order' && <MarkOrderedForm order={order} onDone={() => setDialog(null)} />}
      </Modal>
      <Modal
        opened={dialog === 'reject'}
        onClose={() => setDialog(null)}
        title="Reject this request"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        {dialog === 'reject' && <RejectForm order={order} onDone={() => setDialog(null)} />}
      </Modal>
    </Stack>
  );
}

/** POST /order-requests/{id}/order: what the vendor answered, and the move to Ordered, in one step. */
function MarkOrderedForm({ order, onDone }: { order: OrderRequest; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [po, setPo] = useState(order.purchase_order_number ?? '');
  const [confirmation, setConfirmation] = useState(order.confirmation_number ?? '');
  const [expected, setExpected] = useState('');
  const send = useSubmission<OrderRequest, void>({
    name: 'mark-ordered',
    send: (_, key) =>
      unwrap(
        api.POST('/order-requests/{id}/order', {
          params: { path: { id: order.id } },
          body: {
            ...(po.trim() ? { purchase_order_number: po.trim() } : {}),
            ...(confirmation.trim() ? { confirmation_number: confirmation.trim() } : {}),
            ...(expected ? { expected_delivery_date: expected } : {}),
          },
          headers: idempotent(key),
        }),
      ),
    onSuccess: (data) => {
      onDone();
      return moved(queryClient, data);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.submit();
  };
  return (
    <form onSubmit={submit} aria-label="Mark ordered">
      <Stack gap="xs">
        <TextInput label="PO number" value={po} onChange={(e) => setPo(e.currentTarget.value)} data-autofocus />
        <TextInput label="Confirmation number" value={confirmation} onChange={(e) => setConfirmation(e.currentTarget.value)} />
        <TextInput label="Expected delivery" type="date" value={expected} onChange={(e) => setExpected(e.currentTarget.value)} />
        {send.isError && <ErrorNotice error={send.error} title="Not marked ordered" />}
        <Group>
          <Button type="submit" loading={send.isPending}>
            Mark ordered
          </Button>
          <Button variant="default" onClick={onDone}>
            Not now
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** POST /order-requests/{id}/reject: Cancelled, with the reason in the history for the requester to read. */
function RejectForm({ order, onDone }: { order: OrderRequest; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const send = useSubmission<OrderRequest, string>({
    name: 'reject',
    send: (text, key) =>
      unwrap(
        api.POST('/order-requests/{id}/reject', { params: { path: { id: order.id } }, body: { reason: text }, headers: idempotent(key) }),
      ),
    onSuccess: (data) => {
      onDone();
      return moved(queryClient, data);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (reason.trim()) send.submit(reason.trim());
  };
  return (
    <form onSubmit={submit} aria-label="Reject">
      <Stack gap="xs">
        <Textarea
          label="Why is it rejected?"
          description={`${order.requested_by.first_name} reads this in the request's history.`}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={tried && !reason.trim() ? 'Say why, so they know what to do next.' : undefined}
          autosize
          minRows={2}
          data-autofocus
        />
        {send.isError && <ErrorNotice error={send.error} title="Not rejected" />}
        <Group>
          <Button type="submit" color="red" loading={send.isPending}>
            Reject
          </Button>
          <Button variant="default" onClick={onDone}>
            Not now
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ruleText(rule: ApprovalSettings): string {
  if (rule.rule === 'all') return 'This lab approves every order request before it is ordered.';
  return rule.threshold
    ? `This lab approves order requests above ${formatMoney(rule.threshold)} (or in another currency) before they are ordered.`
    : 'This lab approves order requests above a threshold before they are ordered.';
}
