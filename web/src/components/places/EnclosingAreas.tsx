import { Anchor, Text } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api';
import { keyOf } from '../../data/keys';
import type { Location } from '../../locations';
import { ancestorsOf } from './words';

/**
 * The control areas above the location: what is stored here counts against their limits too (docs/safety.md, a
 * control area counts everything in it and below it). One small read per ancestor (at most six).
 */
export function EnclosingAreas({ labId, locations, id }: { labId: string; locations: readonly Location[]; id: string }) {
  const above = ancestorsOf(locations, id);
  const areas = useQueries({
    queries: above.map((l) => ({
      queryKey: keyOf('/locations/{id}/control-area', { path: { id: l.id } }),
      queryFn: () => unwrap(api.GET('/locations/{id}/control-area', { params: { path: { id: l.id } } })),
    })),
  });
  const marked = above.filter((_, i) => areas[i]?.data?.marked);
  if (marked.length === 0) return null;
  return (
    <Text size="sm" data-testid="enclosing-areas">
      What is stored here also counts in the control {marked.length === 1 ? 'area' : 'areas'}{' '}
      {marked.map((l, i) => (
        <span key={l.id}>
          {i > 0 && (i === marked.length - 1 ? ' and ' : ', ')}
          <Anchor component={Link} to={`/locations/${l.id}?lab=${labId}`} size="sm" underline="always">
            {l.pathNames.join(' / ')}
          </Anchor>
        </span>
      ))}
      .
    </Text>
  );
}
