import type { InventoryItem } from '@labstock/client';
import { Button, Group, Select, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../api';
import { ErrorNotice } from './ErrorNotice';
import { invalidateItem } from './QuantityEditor';

const SIGNED_DECIMAL = /^-?\d{1,20}(\.\d{1,10})?$/;

/** "Used 0.5 for the assay": a change relative to what is there, with a note that goes into the history. */
export function AdjustmentForm({ item }: { item: InventoryItem }) {
  const queryClient = useQueryClient();
  const [delta, setDelta] = useState('');
  const [note, setNote] = useState('');
  const [instanceId, setInstanceId] = useState<string | null>(item.instances[0]?.id ?? null);
  const adjust = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/inventory-items/{id}/adjustments', {
          params: { path: { id: item.id } },
          body: {
            delta: delta.trim(),
            ...(note.trim() ? { note: note.trim() } : {}),
            ...(item.lab.uses_instances && instanceId ? { instance_id: instanceId } : {}),
          },
        }),
      ),
    onSuccess: () => {
      setDelta('');
      setNote('');
      return invalidateItem(queryClient, item.id);
    },
  });
  const valid = SIGNED_DECIMAL.test(delta.trim()) && Number(delta) !== 0;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid) adjust.mutate();
  };
  return (
    <form onSubmit={submit} aria-label="Adjust the quantity">
      <Group align="end" wrap="wrap" gap="xs">
        {item.lab.uses_instances && (
          <Select
            label="Instance"
            data={item.instances.map((i) => ({ value: i.id, label: `${i.lot_number ?? 'no lot'} · ${i.quantity}` }))}
            value={instanceId}
            onChange={setInstanceId}
            allowDeselect={false}
            w={200}
          />
        )}
        <TextInput
          label="Change by"
          placeholder="-0.5 or 2"
          value={delta}
          onChange={(e) => setDelta(e.currentTarget.value)}
          w={130}
          inputMode="decimal"
        />
        <TextInput label="Note" value={note} onChange={(e) => setNote(e.currentTarget.value)} w={240} />
        <Button type="submit" loading={adjust.isPending} disabled={!valid}>
          Adjust
        </Button>
      </Group>
      {adjust.isError && <ErrorNotice error={adjust.error} title="Not adjusted" />}
    </form>
  );
}
