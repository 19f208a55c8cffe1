import { Alert, Anchor, Button, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, unwrap } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Fields';
import { useLabLocations } from '../components/instances/LocationSelect';
import { type LocationAction, LocationDialog } from '../components/LocationDialog';
import { LocationRow, LocationTree } from '../components/LocationTree';
import { OpenCounts, useStartCount } from '../components/stocktake/OpenCounts';
import { useLabs } from '../data/hooks';
import { invalidate } from '../data/keys';
import { idempotent, useSubmission } from '../forms/submission';
import { LocationLabel } from '../labels/LocationLabel';
import { buildTree } from '../locations';
import { useSession } from '../session';

/** A lab's location tree (labs that use instances, docs/product.md §5): the lab switcher of the inventory, then the tree. */
export function LocationsPage() {
  const [params, setParams] = useSearchParams();
  const labId = params.get('lab') ?? '';
  const labs = useLabs();
  const lab = labs.data?.find((l) => l.id === labId);
  const firstLab = labs.data?.[0]?.id;
  useEffect(() => {
    if (!labId && firstLab) setParams({ lab: firstLab }, { replace: true });
  });

  return (
    <Stack>
      <Title order={2}>Locations</Title>
      {labs.isError && <ErrorNotice error={labs.error} />}
      <Select
        label="Lab"
        data={(labs.data ?? []).map((l) => ({ value: l.id, label: l.name }))}
        value={labId || null}
        onChange={(value) => value && setParams({ lab: value }, { replace: true })}
        allowDeselect={false}
        w={260}
      />
      {labs.isPending && <Loading label="Loading labs" />}
      {labs.data?.length === 0 && <Text>You belong to no lab yet: ask an organization admin to add you to one.</Text>}
      {labs.data && labId !== '' && !lab && <Text>This lab does not exist, or it is not yours to see.</Text>}
      {lab && !lab.uses_instances && <LegacyLab />}
      {lab?.uses_instances && <Tree key={lab.id} labId={lab.id} />}
    </Stack>
  );
}

function LegacyLab() {
  const isAdmin = useSession().organization.role === 'admin';
  return (
    <Alert color="gray" title="This lab keeps its locations on each item" data-testid="legacy-lab">
      This lab records a location and a sublocation on each item; it gets a location tree once an organization admin migrates it.{' '}
      {isAdmin ? (
        <Anchor component={Link} to="/lab-migration">
          Migrate it
        </Anchor>
      ) : (
        'An organization admin can migrate it.'
      )}
    </Alert>
  );
}

function Tree({ labId }: { labId: string }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [action, setAction] = useState<LocationAction | null>(null);
  const locations = useLabLocations(labId);
  const startCount = useStartCount();
  // ?location=: the location a label opened, or "Label" in a row's menu chose (docs/labels.md).
  const [params, setParams] = useSearchParams();
  const selected = locations.data?.find((l) => l.id === params.get('location'));
  const addRoot = useSubmission({
    name: 'add-root-location',
    renewOnSuccess: true,
    send: (_, key) => unwrap(api.POST('/locations', { body: { lab_id: labId, name: name.trim() }, headers: idempotent(key) })),
    onSuccess: () => {
      setName('');
      return invalidate(queryClient, ['/labs/{id}/locations', { id: labId }]);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) addRoot.submit();
  };
  const tree = buildTree(locations.data ?? []);
  return (
    <Stack>
      {selected && <LocationLabel location={selected} onClose={() => setParams({ lab: labId }, { replace: true })} />}
      <form onSubmit={submit}>
        <Group align="end">
          <TextInput
            label="New root location"
            placeholder="e.g. Room 101"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            maxLength={200}
            w={260}
          />
          <Button type="submit" loading={addRoot.isPending} disabled={!name.trim()}>
            Add root location
          </Button>
        </Group>
      </form>
      {addRoot.isError && <ErrorNotice error={addRoot.error} title="Not added" />}
      {startCount.isError && <ErrorNotice error={startCount.error} title="The count did not start" />}
      <OpenCounts labId={labId} />
      {locations.isError && <ErrorNotice error={locations.error} />}
      {locations.isPending && <Loading label="Loading locations" />}
      {locations.data?.length === 0 && <Text data-testid="no-locations">This lab has no locations yet.</Text>}
      {tree.roots.length > 0 && (
        <section aria-label="Location tree" data-testid="location-tree">
          <Text size="sm" c="dimmed">
            A location's name opens the inventory stored there and below; its menu starts a count of it, or opens its control area and what
            must be kept apart there.
          </Text>
          <LocationTree labId={labId} nodes={tree.roots} onAction={setAction} onCount={startCount.submit} />
        </section>
      )}
      {tree.unreachable.length > 0 && (
        <Alert color="yellow" title="Locations outside the tree">
          <Text size="sm">These locations form a cycle (stored by an older version). Move one of them to the top level.</Text>
          {tree.unreachable.map((l) => (
            <LocationRow key={l.id} labId={labId} location={l} onAction={setAction} />
          ))}
        </Alert>
      )}
      <LocationDialog labId={labId} action={action} locations={locations.data ?? []} onClose={() => setAction(null)} />
    </Stack>
  );
}
