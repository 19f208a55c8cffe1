import type { InventoryItem } from '@labstock/client';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, unwrap } from '../api';
import { invalidate } from '../data/keys';
import { DecimalInput, readDecimal } from '../forms/DecimalInput';
import { idempotent, useSubmission } from '../forms/submission';
import { typedMoney } from '../money';
import { ErrorNotice } from './ErrorNotice';

/**
 * "Reorder": POST /inventory-items/{id}/reorder makes an order request for the item's product (docs/api.md
 * "Reorder") and the person lands on it. Without a price the lab's last price for the product is used; with none
 * the server answers 422 naming `price`, shown here, and the person gives one. The request keeps the item's unit size.
 */
export function ReorderForm({ item, onCancel }: { item: InventoryItem; onCancel: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [quantity, setQuantity] = useState('1');
  const [tried, setTried] = useState(false);
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState('USD');
  const parsedQuantity = readDecimal(quantity, { integer: true, max: 1_000_000_000 });
  const parsedPrice = readDecimal(amount, { optional: true, allowZero: true });
  const reorder = useSubmission({
    name: 'reorder',
    send: (_, key) =>
      unwrap(
        api.POST('/inventory-items/{id}/reorder', {
          params: { path: { id: item.id } },
          body: {
            quantity: Number(parsedQuantity.value),
            ...(parsedPrice.value ? { price: typedMoney(parsedPrice.value, currency) } : {}),
          },
          headers: idempotent(key),
        }),
      ),
    onSuccess: async (order) => {
      await invalidate(queryClient, '/order-requests');
      navigate(`/order-requests/${order.id}`);
    },
  });
  const missing = [!item.vendor && 'vendor', !item.catalog_number && 'catalog number', !item.type && 'type'].filter(Boolean);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!parsedQuantity.error && !parsedPrice.error) reorder.submit();
  };
  if (missing.length > 0) {
    return (
      <Text size="sm">
        This item has no {missing.join(', ')}: give it one (Edit) or make a new order request instead.{' '}
        <Button size="compact-xs" variant="default" onClick={onCancel}>
          Close
        </Button>
      </Text>
    );
  }
  return (
    <form onSubmit={submit} aria-label="Reorder">
      <Stack gap="xs" maw={520}>
        <Text size="sm">
          A new order request for {item.vendor} {item.catalog_number}
          {item.unit_size ? `, in units of ${item.unit_size}` : ''}. Leave the price empty to use the price of this lab's last request for
          it.
        </Text>
        <Group grow align="start">
          <DecimalInput
            label="Quantity to order"
            description={item.unit_size ? `Units of ${item.unit_size}` : undefined}
            rules={{ integer: true, max: 1_000_000_000 }}
            showError={tried}
            value={quantity}
            onChange={setQuantity}
          />
          <DecimalInput
            label="Unit price"
            placeholder="e.g. 12.50"
            rules={{ optional: true, allowZero: true }}
            showError={tried}
            value={amount}
            onChange={setAmount}
          />
          <TextInput label="Currency" maxLength={3} value={currency} onChange={(e) => setCurrency(e.currentTarget.value)} />
        </Group>
        {reorder.isError && <ErrorNotice error={reorder.error} title="Not reordered" />}
        <Group>
          <Button type="submit" loading={reorder.isPending}>
            Create order request
          </Button>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
