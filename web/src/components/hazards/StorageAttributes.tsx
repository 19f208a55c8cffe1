import type { components } from '@labstock/client';
import { Button, Checkbox, Group, Radio, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api';
import { invalidate, keyOf } from '../../data/keys';
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

/** Whose storage attributes: an item's own (PUT /inventory-items/{id}/…), or a type's, which its items without their own have. */
export type StorageOwner = { kind: 'item'; itemId: string } | { kind: 'type'; typeId: string; typeName: string };

const keyOfOwner = (owner: StorageOwner) =>
  owner.kind === 'item'
    ? keyOf('/inventory-items/{id}/storage-attributes', { path: { id: owner.itemId } })
    : keyOf('/types/{id}/storage-attributes', { path: { id: owner.typeId } });

const read = (owner: StorageOwner): Promise<Attributes> =>
  owner.kind === 'item'
    ? unwrap(api.GET('/inventory-items/{id}/storage-attributes', { params: { path: { id: owner.itemId } } }))
    : unwrap(api.GET('/types/{id}/storage-attributes', { params: { path: { id: owner.typeId } } }));

const write = (owner: StorageOwner, body: Attributes, key: string): Promise<Attributes> =>
  owner.kind === 'item'
    ? unwrap(
        api.PUT('/inventory-items/{id}/storage-attributes', { params: { path: { id: owner.itemId } }, body, headers: idempotent(key) }),
      )
    : unwrap(api.PUT('/types/{id}/storage-attributes', { params: { path: { id: owner.typeId } }, body, headers: idempotent(key) }));

/**
 * What segregation needs beyond the GHS classes (docs/safety.md): whether the item (or every item of a type without
 * its own) is a corrosive acid or base, and whether it is an aqueous solution. Read by everyone who sees it; set by
 * those `canEdit` says (anyone who may edit an item; a type's managers and org admins); saved once.
 */
export function StorageAttributes({ owner, canEdit = true }: { owner: StorageOwner; canEdit?: boolean }) {
  const [editing, setEditing] = useState(false);
  const current = useQuery({ queryKey: keyOfOwner(owner), queryFn: () => read(owner) });
  if (current.isError) return <ErrorNotice error={current.error} />;
  if (current.isPending) return <Loading label="Loading how it is stored" size="sm" />;
  if (editing) return <AttributesForm owner={owner} value={current.data} onDone={() => setEditing(false)} />;
  return (
    <Group gap="xs" justify="space-between" data-testid="storage-attributes">
      <Stack gap={0}>
        <Text size="sm">{attributesWords(current.data)}</Text>
        {owner.kind === 'type' && (
          <Text size="xs" c="dimmed">
            So is every item of this type, unless its own page says otherwise.
          </Text>
        )}
      </Stack>
      {canEdit && (
        <Button
          size="xs"
          variant="default"
          onClick={() => setEditing(true)}
          aria-label={owner.kind === 'type' ? `Edit the storage of ${owner.typeName}` : undefined}
        >
          Edit storage
        </Button>
      )}
    </Group>
  );
}

function AttributesForm({ owner, value, onDone }: { owner: StorageOwner; value: Attributes; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [corrosive, setCorrosive] = useState<Corrosive>(value.corrosive ?? 'neither');
  const [aqueous, setAqueous] = useState(value.aqueous);
  const id = owner.kind === 'item' ? owner.itemId : owner.typeId;
  const save = useSubmission({
    name: `storage-attributes-${id}`,
    renewOnSuccess: true,
    send: (_: null, key) => write(owner, { corrosive: corrosive === 'neither' ? null : corrosive, aqueous }, key),
    onSuccess: async (saved) => {
      queryClient.setQueryData(keyOfOwner(owner), saved);
      // What is stored beside it may conflict now (or no longer); a type's reach every item of it without its own.
      await invalidate(
        queryClient,
        '/locations/{id}/segregation-conflicts',
        ...(owner.kind === 'type' ? (['/inventory-items/{id}/storage-attributes'] as const) : []),
      );
      onDone();
    },
  });
  return (
    <form
      aria-label={owner.kind === 'type' ? `Storage of ${owner.typeName}` : 'Storage'}
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
