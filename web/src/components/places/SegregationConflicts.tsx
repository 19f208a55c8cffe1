import { Anchor, List, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api';
import { keyOf } from '../../data/keys';
import { ErrorNotice } from '../ErrorNotice';
import { Loading } from '../Fields';
import type { SegregationReport } from './types';

type Side = SegregationReport['conflicts'][number]['a'];

/**
 * The pairs of containers stored at this very location (not below it) that must be kept apart
 * (GET /locations/{id}/segregation-conflicts): one sentence each, naming both containers and why.
 */
export function SegregationConflicts({ locationId }: { locationId: string }) {
  const report = useQuery({
    queryKey: keyOf('/locations/{id}/segregation-conflicts', { path: { id: locationId } }),
    queryFn: () => unwrap(api.GET('/locations/{id}/segregation-conflicts', { params: { path: { id: locationId } } })),
  });
  if (report.isError) return <ErrorNotice error={report.error} />;
  if (report.isPending) return <Loading label="Loading the segregation conflicts" size="sm" />;
  if (report.data.conflicts.length === 0)
    return (
      <Text size="sm" data-testid="no-conflicts">
        Nothing stored here must be kept apart from anything else stored here.
      </Text>
    );
  return (
    <List spacing="xs" size="sm" data-testid="conflicts">
      {report.data.conflicts.map((c) => (
        <List.Item key={`${c.a.instance_id}-${c.b.instance_id}`} data-testid="conflict">
          <Container side={c.a} /> and <Container side={c.b} /> share this place: {c.reason}. Move one of them.
        </List.Item>
      ))}
    </List>
  );
}

const GROUP_WORDS: Record<string, string> = {
  flammable: 'a flammable',
  oxidizer: 'an oxidizer',
  'organic-peroxide': 'an organic peroxide',
  pyrophoric: 'a pyrophoric',
  'water-reactive': 'reacts with water',
  acid: 'an acid',
  base: 'a base',
  aqueous: 'an aqueous solution',
  toxic: 'highly toxic',
};

function Container({ side }: { side: Side }) {
  const name =
    side.item_id && side.instance_id ? (
      <Anchor component={Link} to={`/inventory/items/${side.item_id}/instances/${side.instance_id}`} size="sm" underline="always">
        {side.item_name}
      </Anchor>
    ) : (
      side.item_name
    );
  const group = GROUP_WORDS[side.group];
  return (
    <>
      {name}
      {group && ` (${group})`}
    </>
  );
}
