import type { InventoryItem } from '@labstock/client';
import { Button, Group, Select, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../api';
import { DecimalInput, readDecimal } from '../forms/DecimalInput';
import { idempotent, useSubmission } from '../forms/submission';
import { ErrorNotice } from './ErrorNotice';
import { invalidateItem } from './QuantityEditor';

const DELTA_RULES = { allowNegative: true } as const;

/** "Used 0.5 for the assay": a change relative to what is there, with a note that goes into the history. */
export function AdjustmentForm({ item }: { item: InventoryItem }) {
  const queryClient = useQueryClient();
  const [delta, setDelta] = useState('');
  const [note, setNote] = useState('');
  const [instanceId, setInstanceId] = useState<string | null>(item.instances[0]?.id ?? null);
  const [tried, setTried] = useState(false);
  const parsed = readDecimal(delta, DELTA_RULES);
  // A double-click sends one adjustment: the second submit is ignored while the first is on its way, and a retry
  // carries the same key, so the server takes the amount off once. The form stays for the next adjustment: a new key.
  const adjust = useSubmission({
    name: 'adjust',
    renewOnSuccess: true,
    send: (_, key) =>
      unwrap(
        api.POST('/inventory-items/{id}/adjustments', {
          params: { path: { id: item.id } },
          headers: idempotent(key),
          body: {
            delta: parsed.value!,
            ...(note.trim() ? { note: note.trim() } : {}),
            ...(item.lab.uses_instances && instanceId ? { instance_id: instanceId } : {}),
          },
        }),
      ),
    onSuccess: () => {
      setDelta('');
      setNote('');
      setTried(false);
      return invalidateItem(queryClient, item.id);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!parsed.error) adjust.submit();
  };
  return (
    <form onSubmit={submit} aria-label="Adjust the quantity">
      {/* Aligned at the top, so a message under "Change by" does not lift it above its neighbours. */}
      <Group align="flex-start" wrap="wrap" gap="xs">
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
        <DecimalInput
          label="Change by"
          placeholder="-0.5 or 2"
          rules={DELTA_RULES}
          showError={tried}
          value={delta}
          onChange={setDelta}
          w={130}
        />
        <TextInput label="Note" value={note} onChange={(e) => setNote(e.currentTarget.value)} w={240} />
        {/* Level with the inputs below their labels (Mantine's sm label is about 24 px high). */}
        <Button type="submit" loading={adjust.isPending} mt={24}>
          Adjust
        </Button>
      </Group>
      {adjust.isError && <ErrorNotice error={adjust.error} title="Not adjusted" />}
    </form>
  );
}
