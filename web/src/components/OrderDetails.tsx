import type { OrderRequest, operations } from '@labstock/client';
import { Button, Group, Select, SimpleGrid, Stack, Switch, Textarea, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../api';
import { useSpendCodes } from '../data/hooks';
import { invalidateOrder, setData } from '../data/keys';
import { idempotent, useSubmission } from '../forms/submission';
import { ErrorNotice } from './ErrorNotice';
import { FieldGrid } from './Fields';
import { fieldError } from './Profile';

// An order request's details (docs/ordering.md, "Order details"): shown, and edited with PATCH /order-requests/{id},
// which takes only the fields that change (each change is one UPDATED history entry on the server).

const TEXT_FIELDS = [
  ['unit_size', 'Unit size'],
  ['purchase_order_number', 'PO number'],
  ['invoice_number', 'Invoice number'],
  ['requisition_number', 'Requisition number'],
  ['confirmation_number', 'Confirmation number'],
  ['tracking_number', 'Tracking number'],
  ['shipping_and_handling', 'Shipping and handling'],
] as const;
const LONG_FIELDS = [
  ['details', 'Details'],
  ['notes', 'Notes'],
] as const;
type TextField = (typeof TEXT_FIELDS)[number][0] | (typeof LONG_FIELDS)[number][0];
const ALL_TEXT: TextField[] = [...TEXT_FIELDS, ...LONG_FIELDS].map(([f]) => f);

/** The detail fields as label and value, and an Edit button that opens the form in their place. */
export function OrderDetails({ order }: { order: OrderRequest }) {
  const [editing, setEditing] = useState(false);
  const fields: [string, string | null][] = [
    ...[...TEXT_FIELDS, ...LONG_FIELDS].map(([f, label]): [string, string | null] => [label, order[f]]),
    ['Urgent', order.is_urgent ? 'Yes' : 'No'],
    ['Spend tracking code', order.spend_tracking_code?.name ?? null],
  ];
  return (
    <Stack gap="xs" component="section" aria-labelledby="details-title">
      <Group justify="space-between">
        <Title order={3} id="details-title">
          Details
        </Title>
        {!editing && (
          <Button variant="default" size="xs" onClick={() => setEditing(true)}>
            Edit details
          </Button>
        )}
      </Group>
      {editing ? <DetailsForm order={order} onDone={() => setEditing(false)} /> : <FieldGrid fields={fields} />}
    </Stack>
  );
}

type Body = operations['updateOrderRequestDetails']['requestBody']['content']['application/json'];

function DetailsForm({ order, onDone }: { order: OrderRequest; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [text, setText] = useState(() => Object.fromEntries(ALL_TEXT.map((f) => [f, order[f] ?? ''])) as Record<TextField, string>);
  const [urgent, setUrgent] = useState(order.is_urgent);
  const [code, setCode] = useState<string | null>(order.spend_tracking_code?.name ?? null);
  const codes = useSpendCodes(order.lab.id);
  const save = useSubmission({
    name: `order-details-${order.id}`,
    renewOnSuccess: true,
    send: (body: Body, key) =>
      unwrap(api.PATCH('/order-requests/{id}', { params: { path: { id: order.id } }, body, headers: idempotent(key) })),
    onSuccess: (data) => {
      setData(queryClient, '/order-requests/{id}', { id: order.id }, data);
      onDone();
      return invalidateOrder(queryClient, order.id);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Only what changed: an unchanged form sends nothing at all.
    const body: Body = {};
    for (const f of ALL_TEXT) {
      const value = text[f].trim();
      if (value !== (order[f] ?? '')) body[f] = value === '' ? null : value;
    }
    if (urgent !== order.is_urgent) body.is_urgent = urgent;
    if (code !== (order.spend_tracking_code?.name ?? null)) body.spend_tracking_code = code === null ? null : { name: code };
    if (Object.keys(body).length === 0) onDone();
    else save.submit(body);
  };
  const error = (f: string) => fieldError(save.error, f);
  const codeError = error('spend_tracking_code') ?? error('spend_tracking_code.name');
  const named = [...ALL_TEXT, 'is_urgent', 'spend_tracking_code', 'spend_tracking_code.name'].some((f) => error(f) !== undefined);
  const input = (f: TextField) => ({
    value: text[f],
    error: error(f),
    onChange: (e: { currentTarget: { value: string } }) => setText({ ...text, [f]: e.currentTarget.value }),
  });
  // Codes are never renamed (docs/ordering.md), so the request's code stays a choice even when the list fails to load.
  const choices = [
    ...new Set([...(codes.data ?? []).map((c) => c.name), ...(order.spend_tracking_code ? [order.spend_tracking_code.name] : [])]),
  ];
  return (
    <form onSubmit={submit} aria-label="Edit details">
      <Stack gap="xs">
        {save.isError && !named && <ErrorNotice error={save.error} title="Not saved" />}
        {codes.isError && <ErrorNotice error={codes.error} title="The lab's spend tracking codes could not be read" />}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
          {TEXT_FIELDS.map(([f, label]) => (
            <TextInput key={f} label={label} {...input(f)} />
          ))}
          <Select
            label="Spend tracking code"
            placeholder={codes.isPending ? 'Loading…' : 'None'}
            data={choices}
            value={code}
            onChange={setCode}
            clearable
            error={codeError}
          />
        </SimpleGrid>
        {LONG_FIELDS.map(([f, label]) => (
          <Textarea key={f} label={label} autosize minRows={2} {...input(f)} />
        ))}
        <Switch label="Urgent" checked={urgent} onChange={(e) => setUrgent(e.currentTarget.checked)} error={error('is_urgent')} />
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save details
          </Button>
          <Button variant="default" onClick={onDone}>
            Cancel editing
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
