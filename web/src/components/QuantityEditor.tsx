import { Alert, Button, Group, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, describeError, LabstockError, unwrap } from '../api';

const DECIMAL = /^\d{1,20}(\.\d{1,10})?$/;

/**
 * Sets an exact quantity (a decimal string, never a float) on an instance or, in a legacy lab, on the item. The
 * change is sent with the ETag the page was read with: if someone changed the item meanwhile (412), the person sees
 * the current value and decides again instead of overwriting it.
 */
export function QuantityEditor(props: { itemId: string; instanceId?: string; current: string; etag: string; label: string }) {
  const queryClient = useQueryClient();
  const [value, setValue] = useState(props.current);
  const [stale, setStale] = useState(false);
  const save = useMutation({
    mutationFn: async () => {
      const header = { 'if-match': props.etag };
      const body = { quantity: value };
      return props.instanceId
        ? unwrap(
            api.PUT('/inventory-items/{itemId}/instances/{itemInstanceId}', {
              params: { path: { itemId: props.itemId, itemInstanceId: props.instanceId }, header },
              body,
            }),
          )
        : unwrap(api.PUT('/inventory-items/{id}', { params: { path: { id: props.itemId }, header }, body }));
    },
    onSuccess: () => {
      setStale(false);
      return invalidateItem(queryClient, props.itemId);
    },
    onError: (err) => {
      if (err instanceof LabstockError && err.status === 412) setStale(true);
    },
  });
  const valid = DECIMAL.test(value.trim());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid) save.mutate();
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
      <Group gap="xs" wrap="nowrap" align="start">
        <TextInput
          aria-label={props.label}
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          error={
            !valid
              ? 'A number such as 2 or 0.25'
              : save.isError && !(save.error instanceof LabstockError && save.error.status === 412)
                ? describeError(save.error)
                : undefined
          }
          w={140}
          size="xs"
          inputMode="decimal"
        />
        <Button type="submit" size="xs" variant="light" loading={save.isPending} disabled={!valid || value.trim() === props.current}>
          Save
        </Button>
      </Group>
    </form>
  );
}

export function invalidateItem(queryClient: ReturnType<typeof useQueryClient>, itemId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ['inventory-item', itemId] }),
    queryClient.invalidateQueries({ queryKey: ['inventory-item-history', itemId] }),
    queryClient.invalidateQueries({ queryKey: ['inventory-items'] }),
  ]);
}
