import { Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../api';
import { invalidate } from '../data/keys';
import { idempotent, useSubmission } from '../forms/submission';
import { type Location, pathOf, subtreeIds } from '../locations';
import { ErrorNotice } from './ErrorNotice';

export type LocationAction = { kind: 'add' | 'rename' | 'move' | 'delete'; location: Location };

const TITLES = { add: 'Add a sub-location', rename: 'Rename', move: 'Move', delete: 'Delete' } as const;
const ROOT = 'root';

/**
 * One change to one location, in a dialog. The server judges it (depth, sibling names, a non-empty location):
 * its refusal is shown here, in the dialog, and the dialog stays open so the person can change their mind.
 */
export function LocationDialog({
  labId,
  action,
  locations,
  onClose,
}: {
  labId: string;
  action: LocationAction | null;
  locations: Location[];
  onClose: () => void;
}) {
  return (
    <Modal
      opened={action !== null}
      onClose={onClose}
      closeButtonProps={{ 'aria-label': 'Close' }}
      title={action ? `${TITLES[action.kind]}: ${pathOf(action.location)}` : ''}
    >
      {action && (
        <DialogBody key={`${action.kind}-${action.location.id}`} labId={labId} action={action} locations={locations} onDone={onClose} />
      )}
    </Modal>
  );
}

function DialogBody({
  labId,
  action,
  locations,
  onDone,
}: {
  labId: string;
  action: LocationAction;
  locations: Location[];
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const { kind, location } = action;
  const [name, setName] = useState(kind === 'rename' ? location.name : '');
  const [parent, setParent] = useState<string | null>(location.parent_id ?? ROOT);
  // One key per dialog opening and action: a double-click on Add makes one location, a retried move moves once.
  const change = useSubmission({
    name: `location-${kind}-${location.id}`,
    renewOnSuccess: true,
    send: async (_, key) => {
      const path = { params: { path: { id: location.id } } };
      const headers = idempotent(key);
      if (kind === 'add')
        return unwrap(api.POST('/locations', { body: { lab_id: labId, parent_id: location.id, name: name.trim() }, headers }));
      if (kind === 'rename') return unwrap(api.PATCH('/locations/{id}', { ...path, body: { name: name.trim() }, headers }));
      if (kind === 'move')
        return unwrap(api.PATCH('/locations/{id}', { ...path, body: { parent_id: parent === ROOT ? null : parent }, headers }));
      return unwrap(api.DELETE('/locations/{id}', path));
    },
    onSuccess: async () => {
      // A rename or move changes the path every instance below shows (docs/api.md), so the items are read again too.
      await invalidate(queryClient, ['/labs/{id}/locations', { id: labId }], '/inventory-items', '/inventory-items/{id}');
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if ((kind === 'add' || kind === 'rename') && !name.trim()) return;
    change.submit();
  };
  const excluded = kind === 'move' ? subtreeIds(locations, location.id) : new Set<string>();
  const parents = [
    { value: ROOT, label: 'Top level (a root location)' },
    ...locations
      .filter((l) => !excluded.has(l.id))
      .map((l) => ({ value: l.id, label: pathOf(l) }))
      .sort((a, b) => a.label.localeCompare(b.label)),
  ];
  const verb = { add: 'Add', rename: 'Rename', move: 'Move', delete: 'Delete' }[kind];
  return (
    <form onSubmit={submit}>
      <Stack>
        {(kind === 'add' || kind === 'rename') && (
          <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={200} required data-autofocus />
        )}
        {kind === 'move' && (
          <Select label="New parent" data={parents} value={parent} onChange={setParent} allowDeselect={false} searchable data-autofocus />
        )}
        {kind === 'delete' && <Text>Delete {pathOf(location)}? Only an empty location can be deleted.</Text>}
        {change.isError && (
          <ErrorNotice error={change.error} title={`Not ${{ add: 'added', rename: 'renamed', move: 'moved', delete: 'deleted' }[kind]}`} />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" color={kind === 'delete' ? 'red' : undefined} loading={change.isPending}>
            {verb}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
