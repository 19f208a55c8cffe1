import type { components } from '@labstock/client';
import { Button, Checkbox, Group, Radio, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api';
import { invalidate, keyOf, setData } from '../../data/keys';
import { idempotent, useSubmission } from '../../forms/submission';
import { ErrorNotice } from '../ErrorNotice';
import { Loading } from '../Fields';

type Attributes = components['schemas']['StorageAttributes'];
type Corrosive = 'acid' | 'base' | 'neither';

/** "Stored as an acid, not an aqueous solution." */
export function attributesWords(a: Attributes): string {
  const corrosive =
    a.corrosive === 'acid' ? 'a corrosive acid' : a.corrosive === 'base' ? 'a corrosive base' : 'neither an acid nor a base';
  return `Stored as ${corrosive}; ${a.aqueous ? 'an aqueous solution' : 'not an aqueous solution'}.`;
}

/**
 * What segregation needs beyond the GHS classes (docs/safety.md): whether the item is a corrosive acid or base, and
 * whether it is an aqueous solution. Anyone who may edit the item sets them; saved once.
 */
export function StorageAttributes({ itemId }: { itemId: string }) {
  const [editing, setEditing] = useState(false);
  const current = useQuery({
    queryKey: keyOf('/inventory-items/{id}/storage-attributes', { path: { id: itemId } }),
    queryFn: () => unwrap(api.GET('/inventory-items/{id}/storage-attributes', { params: { path: { id: itemId } } })),
  });
  if (current.isError) return <ErrorNotice error={current.error} />;
  if (current.isPending) return <Loading label="Loading how it is stored" size="sm" />;
  if (editing) return <AttributesForm itemId={itemId} value={current.data} onDone={() => setEditing(false)} />;
  return (
    <Group gap="xs" justify="space-between" data-testid="storage-attributes">
      <Text size="sm">{attributesWords(current.data)}</Text>
      <Button size="xs" variant="default" onClick={() => setEditing(true)}>
        Edit storage
      </Button>
    </Group>
  );
}

function AttributesForm({ itemId, value, onDone }: { itemId: string; value: Attributes; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [corrosive, setCorrosive] = useState<Corrosive>(value.corrosive ?? 'neither');
  const [aqueous, setAqueous] = useState(value.aqueous);
  const save = useSubmission({
    name: `storage-attributes-${itemId}`,
    renewOnSuccess: true,
    send: (_: null, key) =>
      unwrap(
        api.PUT('/inventory-items/{id}/storage-attributes', {
          params: { path: { id: itemId } },
          body: { corrosive: corrosive === 'neither' ? null : corrosive, aqueous },
          headers: idempotent(key),
        }),
      ),
    onSuccess: async (saved) => {
      setData(queryClient, '/inventory-items/{id}/storage-attributes', { id: itemId }, saved);
      // What is stored beside it may conflict now (or no longer).
      await invalidate(queryClient, '/locations/{id}/segregation-conflicts');
      onDone();
    },
  });
  return (
    <form
      aria-label="Storage"
      onSubmit={(e) => {
        e.preventDefault();
        save.submit(null);
      }}
    >
      <Stack gap="xs">
        <Radio.Group
          label="Is it a corrosive acid or base?"
          description="Acids are kept apart from bases, and both from flammables and oxidizers."
          value={corrosive}
          onChange={(v) => setCorrosive(v as Corrosive)}
        >
          <Stack gap={4} mt={4}>
            <Radio value="acid" label="A corrosive acid" />
            <Radio value="base" label="A corrosive base" />
            <Radio value="neither" label="Neither" />
          </Stack>
        </Radio.Group>
        <Checkbox
          label="An aqueous solution (kept apart from what reacts with water)"
          checked={aqueous}
          onChange={(e) => setAqueous(e.currentTarget.checked)}
        />
        {save.isError && <ErrorNotice error={save.error} title="Not saved" />}
        <Group gap="xs">
          <Button type="submit" size="sm" loading={save.isPending}>
            Save storage
          </Button>
          <Button size="sm" variant="default" onClick={onDone}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
