import { Button, Group, Paper, Stack, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { unwrap } from '../../api';
import { ErrorNotice } from '../../components/ErrorNotice';
import { invalidate } from '../../data/keys';
import { DecimalInput, readDecimal } from '../../forms/DecimalInput';
import { useSubmission } from '../../forms/submission';
import { operatorApi } from './operator-api';
import type { FulfilmentLine } from './shop';

export interface Action {
  kind: 'ship' | 'backorder' | 'cancel';
  line: FulfilmentLine;
}

const TITLE: Record<Action['kind'], string> = { ship: 'Ship', backorder: 'Backorder', cancel: 'Cancel' };

/** The form of one operator move on one line: ship (carrier, tracking, quantity), backorder (date) or cancel (reason). */
export function ActionPanel({ action, onDone }: { action: Action; onDone: () => void }) {
  const { kind, line } = action;
  const queryClient = useQueryClient();
  const [carrier, setCarrier] = useState('');
  const [tracking, setTracking] = useState('');
  const left = line.quantity - line.shipped;
  const [quantity, setQuantity] = useState(String(left));
  const [tried, setTried] = useState(false);
  const [expected, setExpected] = useState('');
  const [reason, setReason] = useState('');
  // More than is left is refused under the field, never clamped to what is left (docs/web.md, "Numbers as typed").
  const quantityRules = { integer: true, max: left } as const;
  const parsedQuantity = readDecimal(quantity, quantityRules);
  const path = { id: line.id };
  // One key per intended move (web/src/forms/submission.ts): a doubled or retried submit is answered with the first
  // response, never done twice; the panel may be opened again for the next shipment of the line: a new key then.
  const run = useSubmission({
    name: `${kind}-${line.id}`,
    renewOnSuccess: true,
    send: async (_, key) => {
      const header = { 'Idempotency-Key': key };
      if (kind === 'ship') {
        const body = { carrier: carrier.trim(), tracking: tracking.trim(), quantity: Number(parsedQuantity.value) };
        return unwrap(operatorApi().POST('/shop/order-items/{id}/shipments', { params: { path, header }, body }));
      }
      if (kind === 'backorder') {
        const body = { expected_at: expected || null };
        return unwrap(operatorApi().POST('/shop/order-items/{id}/backorder', { params: { path, header }, body }));
      }
      const body = reason.trim() ? { reason: reason.trim() } : {};
      return unwrap(operatorApi().POST('/shop/order-items/{id}/cancel', { params: { path, header }, body }));
    },
    onSuccess: () => {
      onDone();
      return invalidate(queryClient, '/shop/order-items');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (kind === 'ship' && parsedQuantity.error) return;
    run.submit();
  };
  return (
    <Paper withBorder p="md" maw={520}>
      <form onSubmit={submit} aria-label={`${TITLE[kind]} a line`}>
        <Stack gap="xs">
          <Title order={3}>
            {TITLE[kind]} {line.sales_order.key}: {line.product.item_name}
          </Title>
          {kind === 'ship' && (
            <>
              <TextInput label="Carrier" required value={carrier} onChange={(e) => setCarrier(e.currentTarget.value)} />
              <TextInput label="Tracking" required value={tracking} onChange={(e) => setTracking(e.currentTarget.value)} />
              <DecimalInput
                label="Quantity"
                description={`${left} left to ship`}
                required
                rules={quantityRules}
                showError={tried}
                value={quantity}
                onChange={setQuantity}
              />
            </>
          )}
          {kind === 'backorder' && (
            <TextInput
              label="Expected on"
              description="Leave empty when nobody knows (indefinitely backordered)"
              type="date"
              value={expected}
              onChange={(e) => setExpected(e.currentTarget.value)}
            />
          )}
          {kind === 'cancel' && <TextInput label="Reason" value={reason} onChange={(e) => setReason(e.currentTarget.value)} />}
          {run.isError && <ErrorNotice error={run.error} title="Not done" />}
          <Group>
            <Button type="submit" loading={run.isPending} color={kind === 'cancel' ? 'red' : undefined}>
              {kind === 'cancel' ? 'Cancel the line' : TITLE[kind]}
            </Button>
            <Button variant="default" onClick={onDone}>
              Close
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
