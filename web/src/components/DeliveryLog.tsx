import type { Webhook, WebhookDelivery } from '@labstock/client';
import { Badge, Button, Code, Group, Pagination, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../api';
import { invalidate, keyOf } from '../data/keys';
import { idempotent, useSubmission } from '../forms/submission';
import { ErrorNotice } from './ErrorNotice';
import { shortEventType } from './EventTypePicker';
import { Loading } from './Fields';

const PER_PAGE = 20;
/** While a delivery is pending the log is asked again this often, so an attempt shows up without a reload. */
const PENDING_REFRESH_MS = 1500;

const STATUS_COLOR: Record<WebhookDelivery['status'], string> = { pending: 'blue', succeeded: 'green', failed: 'red', cancelled: 'gray' };
/** A delivery's status in words (the API's values are lower-case identifiers). */
const STATUS_WORD: Record<WebhookDelivery['status'], string> = {
  pending: 'Pending',
  succeeded: 'Succeeded',
  failed: 'Failed',
  cancelled: 'Cancelled',
};
/** An attempt's outcome (src/delivery/sender.ts: `network_error`, `http_error`…) as words. */
const outcomeWords = (outcome: string) => outcome.replaceAll('_', ' ');

const time = (iso: string) => new Date(iso).toLocaleString();

/** What was sent to the webhook and how the receiver answered, newest first, with a redelivery per delivery. */
export function DeliveryLog({ hook }: { hook: Webhook }) {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const log = useQuery({
    queryKey: keyOf('/webhooks/{id}/deliveries', { path: { id: hook.id }, query: { page, per_page: PER_PAGE } }),
    placeholderData: keepPreviousData,
    queryFn: async () => {
      const call = api.GET('/webhooks/{id}/deliveries', { params: { path: { id: hook.id }, query: { page, per_page: PER_PAGE } } });
      const rows = await unwrap(call);
      return { rows, total: Number((await call).response.headers.get('x-total-count') ?? rows.length) };
    },
    refetchInterval: (query) => (query.state.data?.rows.some((d) => d.status === 'pending') ? PENDING_REFRESH_MS : false),
  });
  const redeliver = useSubmission({
    name: `redeliver-${hook.id}`,
    renewOnSuccess: true,
    send: (deliveryId: string, key) =>
      unwrap(
        api.POST('/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
          params: { path: { id: hook.id, deliveryId } },
          headers: idempotent(key),
        }),
      ),
    onSuccess: () => {
      setPage(1); // the new delivery is the newest
      return invalidate(queryClient, ['/webhooks/{id}/deliveries', { id: hook.id }]);
    },
  });

  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={3}>Delivery log</Title>
        <Button
          variant="default"
          size="xs"
          onClick={() => invalidate(queryClient, ['/webhooks/{id}/deliveries', { id: hook.id }])}
          loading={log.isFetching && !log.isPending}
        >
          Refresh
        </Button>
      </Group>
      {log.isError && <ErrorNotice error={log.error} />}
      {log.isPending && <Loading label="Loading deliveries" size="sm" />}
      {redeliver.isError && <ErrorNotice error={redeliver.error} title="Not redelivered" />}
      {redeliver.isSuccess && (
        <Text role="status" size="sm">
          Queued again as a new delivery, with the same webhook-id.
        </Text>
      )}
      {log.data?.rows.length === 0 && <Text data-testid="no-deliveries">Nothing sent yet.</Text>}
      {log.data && log.data.rows.length > 0 && (
        <>
          <Table.ScrollContainer minWidth={760}>
            <Table aria-label="Deliveries" data-testid="deliveries-table" verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Event</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Queued</Table.Th>
                  <Table.Th>Last answer</Table.Th>
                  <Table.Th>Response</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {log.data.rows.map((delivery) => (
                  <DeliveryRow
                    key={delivery.id}
                    delivery={delivery}
                    canSend={hook.is_enabled}
                    sending={redeliver.isPending && redeliver.variables === delivery.id}
                    onRedeliver={() => redeliver.submit(delivery.id)}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {log.data.total} deliver{log.data.total === 1 ? 'y' : 'ies'}
            </Text>
            <Pagination
              total={Math.max(1, Math.ceil(log.data.total / PER_PAGE))}
              value={page}
              onChange={setPage}
              getControlProps={(control) => ({ 'aria-label': `${control} page of deliveries` })}
            />
          </Group>
        </>
      )}
    </Stack>
  );
}

function DeliveryRow({
  delivery,
  canSend,
  sending,
  onRedeliver,
}: {
  delivery: WebhookDelivery;
  canSend: boolean;
  sending: boolean;
  onRedeliver: () => void;
}) {
  const last = delivery.log.at(-1);
  const kind = shortEventType(delivery.event_type);
  return (
    <Table.Tr data-testid="delivery-row" data-delivery-id={delivery.id}>
      <Table.Td>
        <Text size="sm">{kind}</Text>
        <Text size="xs" c="dimmed">
          event {delivery.event_id}
        </Text>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Badge variant="dot" color={STATUS_COLOR[delivery.status]} data-testid="delivery-status" w="max-content">
          {STATUS_WORD[delivery.status] ?? delivery.status}
        </Badge>
        <Text size="xs" c="dimmed">
          {delivery.attempts} attempt{delivery.attempts === 1 ? '' : 's'}
          {delivery.next_attempt_at && delivery.attempts > 0 ? `; next ${time(delivery.next_attempt_at)}` : ''}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{time(delivery.created_at)}</Text>
      </Table.Td>
      <Table.Td>
        {last ? (
          <Text size="sm" data-testid="last-answer">
            {last.status_code ?? '—'} {outcomeWords(last.outcome)} · {last.duration_ms} ms
          </Text>
        ) : (
          <Text size="sm">not yet sent</Text>
        )}
        {last?.error && (
          <Text size="xs" c="red.9">
            {last.error}
          </Text>
        )}
      </Table.Td>
      <Table.Td maw={280}>
        {last?.response_body ? (
          <Code block style={{ maxHeight: 96, overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {last.response_body}
          </Code>
        ) : (
          <Text size="sm" c="dimmed">
            {last ? 'empty' : '—'}
          </Text>
        )}
        {delivery.log.length > 1 && <Attempts log={delivery.log} />}
      </Table.Td>
      <Table.Td>
        <Button
          size="compact-xs"
          variant="light"
          onClick={onRedeliver}
          loading={sending}
          disabled={!canSend}
          aria-label={`Redeliver ${kind}`}
        >
          Redeliver
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

/** Every attempt of a delivery that took more than one. */
function Attempts({ log }: { log: WebhookDelivery['log'] }) {
  return (
    <details>
      <summary>
        <Text span size="xs">
          all {log.length} attempts
        </Text>
      </summary>
      <Stack gap={2} mt={4}>
        {log.map((a) => (
          <Text key={a.attempted_at} size="xs">
            {time(a.attempted_at)}: {a.status_code ?? '—'} {outcomeWords(a.outcome)}
            {a.error ? ` (${a.error})` : ''}
          </Text>
        ))}
      </Stack>
    </details>
  );
}

/** Sends again every matching event of a time range, those from while the webhook was disabled included. */
export function ReplayForm({ hook }: { hook: Webhook }) {
  const queryClient = useQueryClient();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const replay = useSubmission({
    name: `replay-${hook.id}`,
    renewOnSuccess: true,
    // datetime-local values are the browser's local time; the API wants instants.
    send: (_vars, key) =>
      unwrap(
        api.POST('/webhooks/{id}/replay', {
          params: { path: { id: hook.id } },
          body: { from: new Date(from).toISOString(), to: new Date(to).toISOString() },
          headers: idempotent(key),
        }),
      ),
    onSuccess: () => invalidate(queryClient, ['/webhooks/{id}/deliveries', { id: hook.id }]),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (from && to) replay.submit();
  };
  return (
    <Stack gap="xs">
      <Title order={3}>Replay a time range</Title>
      <Text size="sm">Every event of this webhook's scope and kinds between the two times is sent again (at most 10,000).</Text>
      <form onSubmit={submit}>
        <Group align="end" wrap="wrap">
          <TextInput label="From" type="datetime-local" step={1} required value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
          <TextInput label="To" type="datetime-local" step={1} required value={to} onChange={(e) => setTo(e.currentTarget.value)} />
          <Button type="submit" variant="default" loading={replay.isPending} disabled={!from || !to || !hook.is_enabled}>
            Replay
          </Button>
        </Group>
      </form>
      {replay.isError && <ErrorNotice error={replay.error} title="Nothing replayed" />}
      {replay.data && (
        <Text role="status" size="sm" data-testid="replay-result">
          {replay.data.scheduled === 0
            ? 'No event in that range.'
            : `${replay.data.scheduled} event${replay.data.scheduled === 1 ? '' : 's'} scheduled again.`}
        </Text>
      )}
    </Stack>
  );
}
