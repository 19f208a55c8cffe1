import { Anchor, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, LabstockError, unwrap } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { Loading } from '../components/Fields';
import { useLabLocations } from '../components/instances/LocationSelect';
import { ControlAreaCard } from '../components/places/ControlAreaCard';
import { EnclosingAreas } from '../components/places/EnclosingAreas';
import { SegregationConflicts } from '../components/places/SegregationConflicts';
import { keyOf } from '../data/keys';
import { pathOf } from '../locations';
import { NotFoundPage } from './NotFound';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * /app/locations/{id}?lab=…: one location's safety (docs/safety.md, "In the app"): whether it is a control area, what
 * it holds against its limits, and the containers stored at it that must be kept apart. Anyone who sees the lab reads
 * it; org admins and the lab's managers change the control area. `lab` (optional) gives the path and the way back.
 */
export function LocationPage() {
  const id = useParams().id ?? '';
  const labId = useSearchParams()[0].get('lab') ?? '';
  const valid = UUID.test(id);
  // The meter names the location (and is the card's first read: one request for both).
  const meter = useQuery({
    queryKey: keyOf('/locations/{id}/control-area/meter', { path: { id } }),
    queryFn: () => unwrap(api.GET('/locations/{id}/control-area/meter', { params: { path: { id } } })),
    enabled: valid,
  });
  const locations = useLabLocations(labId, { enabled: UUID.test(labId) });
  if (!valid || (meter.error instanceof LabstockError && meter.error.status === 404)) return <NotFoundPage what="location" />;
  if (meter.isError) return <ErrorNotice error={meter.error} />;
  if (meter.isPending) return <Loading label="Loading the location" />;
  const location = locations.data?.find((l) => l.id === id);
  const title = location ? pathOf(location) : meter.data.name;
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={2} data-testid="location-title">
          {title}
        </Title>
        <Group gap="md">
          {labId && (
            <Anchor component={Link} to={`/locations?lab=${labId}`} size="sm">
              All locations
            </Anchor>
          )}
          {labId && (
            <Anchor component={Link} to={`/inventory?lab=${labId}&location=${id}`} size="sm">
              What is stored here and below
            </Anchor>
          )}
        </Group>
      </Stack>
      <Card withBorder padding="sm" component="section" aria-labelledby="control-area-heading">
        <Stack gap="xs">
          <Title order={3} id="control-area-heading">
            Control area
          </Title>
          <ControlAreaCard locationId={id} name={meter.data.name} />
          {locations.data && <EnclosingAreas labId={labId} locations={locations.data} id={id} />}
        </Stack>
      </Card>
      <Card withBorder padding="sm" component="section" aria-labelledby="segregation-heading">
        <Stack gap="xs">
          <Title order={3} id="segregation-heading">
            Kept apart
          </Title>
          <Text size="sm" c="dimmed">
            Containers stored at {meter.data.name} itself (not below it) whose hazards must not share a place.
          </Text>
          <SegregationConflicts locationId={id} />
        </Stack>
      </Card>
    </Stack>
  );
}
