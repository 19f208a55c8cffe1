import { Alert, Button, Group, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, describeError, LabstockError, unwrap } from '../api';
import { invalidate } from '../data/keys';
import { DecimalInput, readDecimal } from '../forms/DecimalInput';
import { idempotent, useSubmission } from '../forms/submission';
import { checkPlacement, isPlacementRefusal, refusalSentences, usePlacementGate } from './placement/gate';
import { PlacementDialog } from './placement/PlacementDialog';

/** A quantity that is there: zero is fine (the bottle is empty), below zero is not. */
const QUANTITY_RULES = { allowZero: true } as const;

/**
 * Sets an exact quantity (a decimal string, never a float) on an instance or, in a legacy lab, on the item. The
 * change is sent with the ETag the page was read with: if someone changed the item meanwhile (412), the person sees
 * the current value and decides again instead of overwriting it.
 */
export function QuantityEditor(props: {
  itemId: string;
  instanceId?: string;
  /** The instance's location: a larger quantity there is checked against its control areas first (docs/safety.md). */
  locationId?: string | null;
  current: string;
  etag: string;
  label: string;
}) {
  const queryClient = useQueryClient();
  const [value, setValue] = useState(props.current);
  const [stale, setStale] = useState(false);
  const parsed = readDecimal(value, QUANTITY_RULES);
  // Setting a quantity twice leaves the same quantity, but a second click would go with the ETag the first one
  // replaced and show "changed by someone else": the second submit is ignored while the first is on its way.
  const save = useSubmission({
    name: `quantity-${props.instanceId ?? props.itemId}`,
    renewOnSuccess: true,
    send: async (_, key) => {
      const header = { 'if-match': props.etag };
      const body = { quantity: parsed.value! };
      const headers = idempotent(key);
      return props.instanceId
        ? unwrap(
            api.PUT('/inventory-items/{itemId}/instances/{itemInstanceId}', {
              params: { path: { itemId: props.itemId, itemInstanceId: props.instanceId }, header },
              body,
              headers,
            }),
          )
        : unwrap(api.PUT('/inventory-items/{id}', { params: { path: { id: props.itemId }, header }, body, headers }));
    },
    onSuccess: () => {
      setStale(false);
      return invalidateItem(queryClient, props.itemId);
    },
    onError: (err) => {
      if (err instanceof LabstockError && err.status === 412) setStale(true);
    },
  });
  const gate = usePlacementGate();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (parsed.error || parsed.value === undefined) return;
    const { instanceId, locationId } = props;
    const more = Number(parsed.value) > Number(props.current);
    gate.ask(
      async () =>
        instanceId && locationId && more
          ? checkPlacement({ location_id: locationId, instances: [{ instance_id: instanceId, quantity: parsed.value! }] })
          : null,
      () => save.submit(),
    );
  };
  if (stale) {
    return (
      <Alert color="yellow" title="Changed by someone else" role="alert">
        This item changed since you opened it; the quantity is now {props.current}.{' '}
        <Button size="compact-xs" variant="light" onClick={() => invalidateItem(queryClient, props.itemId).then(() => setStale(false))}>
          Show the current values
        </Button>
      </Alert>
    );
  }
  return (
    <form onSubmit={submit}>
      {/* The server's refusal, under the field like the field's own error. */}
      <Group gap="xs" wrap="nowrap" align="start">
        <DecimalInput
          aria-label={props.label}
          value={value}
          onChange={setValue}
          rules={QUANTITY_RULES}
          showError={value.trim() !== ''}
          w={140}
          size="xs"
        />
        <Button
          type="submit"
          size="xs"
          variant="light"
          loading={save.isPending || gate.asking}
          disabled={parsed.error !== undefined || parsed.value === props.current}
        >
          Save
        </Button>
      </Group>
      {save.isError && !(save.error instanceof LabstockError && save.error.status === 412) && (
        <Text c="red" size="xs" role="alert" maw={260}>
          {isPlacementRefusal(save.error)
            ? `Refused by the lab's safety settings: ${refusalSentences(save.error).join('; ')}`
            : describeError(save.error)}
        </Text>
      )}
      <PlacementDialog gate={gate} action={props.label} />
    </form>
  );
}

export function invalidateItem(queryClient: ReturnType<typeof useQueryClient>, itemId: string) {
  return invalidate(
    queryClient,
    ['/inventory-items/{id}', { id: itemId }],
    ['/inventory-items/{id}/history', { id: itemId }],
    ['/inventory-items/{id}/identifiers', { id: itemId }],
    '/inventory-items',
  );
}
