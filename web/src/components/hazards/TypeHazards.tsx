import { Button, Group, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, describeError, unwrap } from '../../api';
import { invalidate, keyOf } from '../../data/keys';
import { idempotent, useSubmission } from '../../forms/submission';
import { ErrorNotice } from '../ErrorNotice';
import { Loading } from '../Fields';
import { HazardPicker } from './HazardPicker';
import { HazardSummary } from './HazardSummary';
import { StorageAttributes } from './StorageAttributes';

/**
 * A type's hazards (docs/hazards.md) and how its items are stored (docs/safety.md "Storage attributes of a type"):
 * shown to its lab, set by its managers; every item of it without its own has them.
 */
export function TypeHazards({ typeId, typeName, manages }: { typeId: string; typeName: string; manages: boolean }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [codes, setCodes] = useState<string[]>([]);
  const hazards = useQuery({
    queryKey: keyOf('/types/{id}/hazards', { path: { id: typeId } }),
    queryFn: () => unwrap(api.GET('/types/{id}/hazards', { params: { path: { id: typeId } } })),
  });
  const save = useSubmission({
    name: `type-hazards-${typeId}`,
    renewOnSuccess: true,
    send: (body: string[], key) =>
      unwrap(
        api.PUT('/types/{id}/hazards', { params: { path: { id: typeId } }, body: { hazard_statements: body }, headers: idempotent(key) }),
      ),
    onSuccess: async () => {
      await invalidate(queryClient, ['/types/{id}/hazards', { id: typeId }], '/inventory-items/{id}/hazards', '/hazards/inventory-items');
      setEditing(false);
    },
  });
  if (hazards.isError) return <ErrorNotice error={hazards.error} />;
  if (hazards.isPending) return <Loading label="Loading the hazards" size="sm" />;
  if (editing)
    return (
      <form
        aria-label={`Hazards of ${typeName}`}
        onSubmit={(e) => {
          e.preventDefault();
          save.submit(codes);
        }}
      >
        <Stack gap="xs">
          <HazardPicker label={`Hazard statements of ${typeName}`} value={codes} onChange={setCodes} />
          <Text size="xs" c="dimmed">
            Every item of this type shows them, unless it has its own. Leave empty for none.
          </Text>
          {save.isError && (
            <Text c="red" size="sm" role="alert">
              {describeError(save.error)}
            </Text>
          )}
          <Group gap="xs">
            <Button type="submit" size="xs" loading={save.isPending}>
              Save hazards
            </Button>
            <Button size="xs" variant="default" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </form>
    );
  return (
    <Stack gap={4}>
      <HazardSummary hazards={hazards.data} empty="No hazard statements recorded." />
      {manages && (
        <Group>
          <Button
            size="xs"
            variant="default"
            aria-label={`Edit the hazards of ${typeName}`}
            onClick={() => {
              setCodes(hazards.data.statements.map((s) => s.code));
              setEditing(true);
            }}
          >
            Edit hazards
          </Button>
        </Group>
      )}
      <StorageAttributes owner={{ kind: 'type', typeId, typeName }} canEdit={manages} />
    </Stack>
  );
}
