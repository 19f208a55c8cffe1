import { Alert, Badge, Button, Group, Modal, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { api, unwrap } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Fields';
import { useLabs } from '../data/hooks';
import { invalidate, keyOf, setData } from '../data/keys';
import { idempotent, useSubmission } from '../forms/submission';
import { useSession } from '../session';

type Lab = { id: string; name: string; uses_instances: boolean };

/** How often a running migration's progress is read again. */
const POLL_MS = 1000;
/** A running migration whose last batch is older than this has probably stopped (docs/api.md, "If the server stops"). */
const STALLED_MS = 60_000;

/**
 * Moving a legacy lab to instances (docs/product.md §5), for org admins: the server refuses anyone else (403), and
 * the page is not offered to them. Each lab shows whether it still uses the legacy model, its progress while it runs,
 * and when it finished.
 */
export function LabMigrationPage() {
  const isAdmin = useSession().organization.role === 'admin';
  // Labs migrated while the page is open keep showing their result after GET /labs says they use instances.
  const [watched, setWatched] = useState<Set<string>>(new Set());
  const watch = useCallback((id: string) => setWatched((s) => (s.has(id) ? s : new Set(s).add(id))), []);
  const labs = useLabs({ enabled: isAdmin });
  if (!isAdmin) {
    return (
      <Stack gap="xs" data-testid="not-allowed">
        <Title order={2}>Not allowed</Title>
        <Text>Only an organization admin migrates labs to instances.</Text>
      </Stack>
    );
  }
  return (
    <Stack>
      <Title order={2}>Lab migration</Title>
      <Text size="sm">
        A legacy lab keeps one quantity, lot, expiry and location on each item. Migrating it makes each item's values one instance and its
        locations a tree. It cannot be undone; while it runs the lab's inventory is read-only.
      </Text>
      {labs.isError && <ErrorNotice error={labs.error} />}
      {labs.isPending && <Loading label="Loading labs" />}
      {labs.data?.length === 0 && <Text>The organization has no labs yet.</Text>}
      {labs.data && labs.data.length > 0 && (
        <Table.ScrollContainer minWidth={600}>
          <Table aria-label="Labs" data-testid="labs-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Lab</Table.Th>
                <Table.Th>Migration</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {labs.data.map((lab) => (
                <Table.Tr key={lab.id} data-testid="lab-row">
                  <Table.Td>{lab.name}</Table.Td>
                  <Table.Td>
                    {lab.uses_instances && !watched.has(lab.id) ? (
                      <Badge variant="light">Uses instances</Badge>
                    ) : (
                      <Migration lab={lab} watch={watch} />
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

function Migration({ lab, watch }: { lab: Lab; watch: (labId: string) => void }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const progress = useQuery({
    queryKey: keyOf('/labs/{id}/migration', { path: { id: lab.id } }),
    queryFn: () => unwrap(api.GET('/labs/{id}/migration', { params: { path: { id: lab.id } } })),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? POLL_MS : false),
  });
  const start = useSubmission({
    name: `migrate-${lab.id}`,
    // A stalled run is resumed by sending it again: a new intention, under a new key.
    renewOnSuccess: true,
    send: (_vars, key) =>
      unwrap(api.POST('/labs/{id}/migrate-to-instances', { params: { path: { id: lab.id } }, body: {}, headers: idempotent(key) })),
    onSuccess: (data) => {
      setConfirming(false);
      setData(queryClient, '/labs/{id}/migration', { id: lab.id }, data);
    },
  });
  const p = progress.data;
  const done = p?.status === 'done';
  // Once it is done, what other pages hold about the lab (legacy, its items' shape) is read again.
  const status = p?.status;
  useEffect(() => {
    if (status === 'running' || status === 'done') watch(lab.id);
    if (status === 'done')
      void invalidate(queryClient, '/labs', '/labs/{id}', '/labs/{id}/locations', '/inventory-items', '/inventory-items/{id}');
  }, [status, lab.id, watch, queryClient]);
  const stalled = p?.status === 'running' && p.updated_at !== null && Date.now() - Date.parse(p.updated_at) > STALLED_MS;
  if (progress.isPending) return <Loading label={`Loading the migration of ${lab.name}`} size="sm" />;
  return (
    <Stack gap={6} data-testid="migration" data-status={p?.status}>
      {progress.isError && <ErrorNotice error={progress.error} title="Progress not read" />}
      {p?.status === 'not_started' && (
        <Group>
          <Badge variant="light" color="gray">
            Legacy
          </Badge>
          <Button size="xs" onClick={() => setConfirming(true)} aria-label={`Migrate ${lab.name}`}>
            Migrate…
          </Button>
        </Group>
      )}
      {(p?.status === 'running' || done) && p && (
        <>
          <Progress
            value={p.items_total === 0 ? 100 : (100 * p.items_migrated) / p.items_total}
            animated={!done}
            aria-label={`Migration of ${lab.name}`}
          />
          <Text size="sm" role="status">
            {done
              ? `Done: ${p.items_migrated} of ${p.items_total} items migrated${p.finished_at ? ` (finished ${new Date(p.finished_at).toLocaleString()})` : ''}. The lab now uses instances.`
              : `Migrating: ${p.items_migrated} of ${p.items_total} items. The lab's inventory is read-only until it is done.`}
          </Text>
        </>
      )}
      {stalled && (
        <Alert color="yellow" title="The migration seems to have stopped">
          <Text size="sm">
            No batch has finished for a minute (a server restart stops it). Starting it again continues where it stopped.
          </Text>
          <Button size="xs" mt="xs" onClick={() => start.submit()} loading={start.isPending}>
            Resume
          </Button>
        </Alert>
      )}
      {start.isError && !confirming && <ErrorNotice error={start.error} title="Not started" />}
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        closeButtonProps={{ 'aria-label': 'Close' }}
        title={`Migrate ${lab.name} to instances?`}
      >
        <Stack>
          <Text>
            Every item's quantity, lot, expiry and location become one instance, and the locations become the lab's location tree. This
            cannot be undone. The lab's inventory is read-only until it finishes.
          </Text>
          {start.isError && <ErrorNotice error={start.error} title="Not started" />}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button onClick={() => start.submit()} loading={start.isPending}>
              Start the migration
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
