import type { OrderRequest } from '@labstock/client';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api';
import { ACTION, type ApprovalSettings, mayApprove, NEXT, needsApproval, type OrderStatus } from '../orders';
import { formatMoney } from '../pages/OrderRequests';
import { useSession } from '../session';
import { ErrorNotice } from './ErrorNotice';
import { Loading } from './Fields';

/** The lab's approval rule as this person sees it (GET /labs/{id}/approval-settings, with their role in the lab). */
export function useApprovalSettings(labId: string) {
  return useQuery({
    queryKey: ['approval-settings', labId],
    queryFn: () => unwrap(api.GET('/labs/{id}/approval-settings', { params: { path: { id: labId } } })),
  });
}

/**
 * The moves the transition table allows (web/src/orders.ts), narrowed by the lab's approval rule (docs/ordering.md):
 * "Approve" only for someone who may approve and is not the requester, "Mark ordered" from CREATED held back while
 * the request waits for approval, with the reason. The server refuses the same anyway.
 */
export function OrderActions({ order, onReceive, receiving }: { order: OrderRequest; onReceive: () => void; receiving: boolean }) {
  const queryClient = useQueryClient();
  const { user } = useSession();
  const settings = useApprovalSettings(order.lab.id);
  const move = useMutation({
    mutationFn: (status: OrderStatus) => unwrap(api.PUT('/order-requests/{id}', { params: { path: { id: order.id } }, body: { status } })),
    onSuccess: (data) => {
      queryClient.setQueryData(['order-request', order.id], data);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: ['order-requests'] }),
        queryClient.invalidateQueries({ queryKey: ['awaiting-approval'] }),
      ]);
    },
  });
  // The buttons wait for the rule, so "Mark ordered" never shows enabled for a request that waits for approval.
  if (settings.isPending) return <Loading label="Loading the lab's approval rule" size="sm" />;
  const rule: ApprovalSettings | undefined = settings.data;
  const ruled = rule !== undefined && rule.rule !== 'none';
  const needs = ruled && needsApproval(rule, order.total_price);
  const approves = !ruled || mayApprove(rule, user.id, order.requested_by.id);
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
                ? `This request needs approval before it is ordered${approves ? '.' : order.requested_by.id === user.id ? ': someone else among the lab’s approvers approves it.' : ': the lab’s approvers and managers approve it.'}`
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
          ) : (
            <Button
              key={status}
              variant={status === 'CANCELLED' ? 'light' : 'filled'}
              color={status === 'CANCELLED' ? 'red' : undefined}
              loading={move.isPending && move.variables === status}
              // Held back, not hidden, while it waits for approval: the note above says why.
              disabled={status === 'ORDERED' && waiting}
              aria-describedby={status === 'ORDERED' && waiting ? 'approval-reason' : undefined}
              onClick={() => move.mutate(status)}
            >
              {ACTION[status]}
            </Button>
          ),
        )}
      </Group>
      {move.isError && <ErrorNotice error={move.error} title="Not changed" />}
    </Stack>
  );
}

function ruleText(rule: ApprovalSettings): string {
  if (rule.rule === 'all') return 'This lab approves every order request before it is ordered.';
  return rule.threshold
    ? `This lab approves order requests above ${formatMoney(rule.threshold)} (or in another currency) before they are ordered.`
    : 'This lab approves order requests above a threshold before they are ordered.';
}
