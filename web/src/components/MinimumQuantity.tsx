import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, describeError, unwrap } from '../api';
import { keyOf } from '../data/keys';
import { DecimalInput, readDecimal } from '../forms/DecimalInput';
import { idempotent, useSubmission } from '../forms/submission';
import { ErrorNotice } from './ErrorNotice';
import { Loading } from './Fields';
import { invalidateItem } from './QuantityEditor';
import { isStale, StaleNotice } from './StaleNotice';

/** Empty removes the minimum; zero is allowed (nothing is ever below it). */
const MINIMUM_RULES = { optional: true, allowZero: true } as const;

/**
 * The item's minimum quantity (its own endpoint, docs/api.md "Minimum quantities"): shown with whether the item is
 * below it, and set or removed (empty) with the item's ETag, like any edit of the item.
 */
export function MinimumQuantity({ itemId, etag }: { itemId: string; etag: string }) {
  const queryClient = useQueryClient();
  // Keyed by the ETag: any change of the item (a quantity too) may change whether it is below its minimum.
  const minimum = useQuery({
    queryKey: [...keyOf('/inventory-items/{id}/minimum-quantity', { path: { id: itemId } }), etag],
    queryFn: () => unwrap(api.GET('/inventory-items/{id}/minimum-quantity', { params: { path: { id: itemId } } })),
  });
  if (minimum.isError) return <ErrorNotice error={minimum.error} />;
  if (minimum.isPending) return <Loading label="Loading the minimum quantity" size="sm" />;
  return (
    <MinimumForm
      key={`${etag}-${minimum.data.minimum_quantity}`}
      itemId={itemId}
      etag={etag}
      current={minimum.data.minimum_quantity}
      below={minimum.data.below_minimum}
      onSaved={() => invalidateItem(queryClient, itemId)}
    />
  );
}

function MinimumForm(props: { itemId: string; etag: string; current: string | null; below: boolean; onSaved: () => Promise<unknown> }) {
  const [value, setValue] = useState(props.current ?? '');
  const parsed = readDecimal(value, MINIMUM_RULES);
  const save = useSubmission({
    name: 'minimum',
    renewOnSuccess: true,
    send: (_, key) =>
      unwrap(
        api.PUT('/inventory-items/{id}/minimum-quantity', {
          params: { path: { id: props.itemId }, header: { 'if-match': props.etag } },
          body: { minimum_quantity: parsed.value ?? null },
          headers: idempotent(key),
        }),
      ),
    onSuccess: props.onSaved,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!parsed.error) save.submit();
  };
  if (save.isError && isStale(save.error)) return <StaleNotice itemId={props.itemId} onReloaded={() => save.reset()} />;
  return (
    <form onSubmit={submit} aria-label="Minimum quantity">
      <Group gap="xs" align="start">
        <Stack gap={2} w={160}>
          <DecimalInput
            aria-label="Minimum quantity"
            placeholder="none"
            value={value}
            onChange={setValue}
            rules={MINIMUM_RULES}
            showError={value.trim() !== ''}
          />
          {save.isError && (
            <Text c="red" size="xs" role="alert">
              {describeError(save.error)}
            </Text>
          )}
        </Stack>
        <Button
          type="submit"
          variant="light"
          loading={save.isPending}
          disabled={parsed.error !== undefined || (parsed.value ?? '') === (props.current ?? '')}
        >
          Set minimum
        </Button>
        {props.current === null ? (
          <Text size="sm" c="dimmed" mt={6}>
            No minimum set.
          </Text>
        ) : props.below ? (
          <Badge color="red.9" mt={6} data-testid="below-minimum">
            Below minimum
          </Badge>
        ) : (
          <Badge color="green" variant="light" mt={6}>
            At or above minimum
          </Badge>
        )}
      </Group>
    </form>
  );
}
