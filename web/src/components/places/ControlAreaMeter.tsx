import { Anchor, Progress, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api';
import { keyOf } from '../../data/keys';
import { ErrorNotice } from '../ErrorNotice';
import { Loading } from '../Fields';
import type { Limit, MeterLine } from './types';
import { amountOfLimit, containers, level, limitName, overBy, share, unknownByItem } from './words';

const COLOR = { over: 'red', near: 'orange', fine: 'teal' } as const;

/**
 * What a control area holds against its limits (GET /locations/{id}/control-area/meter): per class one sentence
 * ("Flammable liquids IB and IC: 18 L of 20 L") and a bar, orange from 80 % and red over the limit; the containers
 * whose amount is not known are named, never guessed.
 */
export function ControlAreaMeter({ locationId, limits }: { locationId: string; limits: readonly Limit[] }) {
  const meter = useQuery({
    queryKey: keyOf('/locations/{id}/control-area/meter', { path: { id: locationId } }),
    queryFn: () => unwrap(api.GET('/locations/{id}/control-area/meter', { params: { path: { id: locationId } } })),
  });
  if (meter.isError) return <ErrorNotice error={meter.error} />;
  if (meter.isPending) return <Loading label="Loading what the area holds" size="sm" />;
  if (!meter.data.marked) return null;
  if (meter.data.lines.length === 0)
    return (
      <Text size="sm" data-testid="meter-empty">
        Nothing stored here or below counts against a limit.
      </Text>
    );
  return (
    <Stack gap="sm" data-testid="meter">
      {meter.data.lines.map((line) => (
        <MeterRow key={`${line.category}-${line.state}`} line={line} name={limitName(line, limits)} />
      ))}
    </Stack>
  );
}

function MeterRow({ line, name }: { line: MeterLine; name: string }) {
  const l = level(line);
  const words = `${name}: ${amountOfLimit(line)}`;
  const unknown = unknownByItem(line.unknown);
  return (
    <div data-testid="meter-line" data-level={l}>
      <Text size="sm" fw={l === 'fine' ? 400 : 600} c={l === 'over' ? 'red.8' : undefined}>
        {words}
        {l === 'over' && `: ${overBy(line)}`}
        {l === 'near' && ': near the limit'}
      </Text>
      <Progress value={share(line)} color={COLOR[l]} aria-label={words} mt={2} />
      {unknown.length > 0 && (
        <Text size="sm" c="dimmed" mt={2} data-testid="meter-unknown">
          Not counted, because their amount is not known (a unit size that is not a {line.state === 'solid' ? 'weight' : 'volume'}):{' '}
          {unknown.map((u, i) => (
            <span key={u.itemId ?? u.name}>
              {i > 0 && ', '}
              {u.itemId ? (
                <Anchor component={Link} to={`/inventory/items/${u.itemId}`} size="sm" underline="always">
                  {u.name}
                </Anchor>
              ) : (
                u.name
              )}{' '}
              ({containers(u.count)})
            </span>
          ))}
          .
        </Text>
      )}
    </div>
  );
}
