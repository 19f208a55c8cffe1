import { Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { api, unwrap } from '../../api';
import { useAll } from '../../data/hooks';
import { idempotent, useSubmission } from '../../forms/submission';
import type { Location } from '../../locations';
import { ErrorNotice } from '../ErrorNotice';
import { refreshStocktake } from './refresh';

/**
 * Starting a count from a location (the tree's menu): an open count of that location is resumed rather than doubled
 * (the server answers it), and the count's page opens.
 */
export function useStartCount() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const start = useSubmission({
    name: 'start-count',
    renewOnSuccess: true,
    send: (location: Location, key) => unwrap(api.POST('/stocktakes', { body: { location_id: location.id }, headers: idempotent(key) })),
    onSuccess: async (view) => {
      await refreshStocktake(queryClient, view.id);
      navigate(`/stocktakes/${view.id}`);
    },
  });
  return start;
}

/**
 * Starting the count of a lab without instances (docs/stocktake.md): every item of it; an open one is resumed (the
 * server answers it), and the count's page opens.
 */
export function useStartLabCount() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useSubmission({
    name: 'start-lab-count',
    renewOnSuccess: true,
    send: (labId: string, key) => unwrap(api.POST('/stocktakes', { body: { lab_id: labId }, headers: idempotent(key) })),
    onSuccess: async (view) => {
      await refreshStocktake(queryClient, view.id);
      navigate(`/stocktakes/${view.id}`);
    },
  });
}

/** What a count covers, in words: "Room 101 / Freezer A", or the lab. */
export const countedPlace = (c: { covers: 'location' | 'lab'; location: { pathNames: string[] } | null; lab: { name: string } }) =>
  c.covers === 'lab' ? c.lab.name : c.location ? c.location.pathNames.join(' / ') : 'a deleted location';

/** The lab's counts still open: each can be resumed by anyone of the lab. */
export function OpenCounts({ labId }: { labId: string }) {
  const open = useAll('/stocktakes', { query: { lab_id: labId, status: 'open' } });
  if (open.isError) return <ErrorNotice error={open.error} />;
  if (!open.data || open.data.length === 0) return null;
  return (
    <Stack gap={4} component="section" aria-label="Counts in progress" data-testid="open-counts">
      <Title order={3} size="h4">
        Counts in progress
      </Title>
      {open.data.map((c) => (
        <Group key={c.id} gap="xs" wrap="wrap">
          <Anchor component={Link} to={`/stocktakes/${c.id}`}>
            Resume the count of {countedPlace(c)}
          </Anchor>
          <Text size="sm" c="dimmed">
            {c.summary.expected - c.summary.missing} of {c.summary.expected} counted, started by{' '}
            {c.started_by ? `${c.started_by.first_name} ${c.started_by.last_name}` : 'someone'}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
