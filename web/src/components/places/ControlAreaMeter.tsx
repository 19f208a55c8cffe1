import { Anchor, Button, Progress, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../../api';
import { keyOf } from '../../data/keys';
import { ErrorNotice } from '../ErrorNotice';
import { Loading } from '../Fields';
import type { Limit, MeterLine } from './types';
import { amountOfLimit, containers, level, limitName, overBy, share, unknownRest } from './words';

const COLOR = { over: 'red', near: 'orange', fine: 'teal' } as const;

// The items of unknown amount each line names at first, and all of them once asked (the API's maximum).
const FIRST = 5;
const ALL = 1000;

/**
 * What a control area holds against its limits (GET /locations/{id}/control-area/meter): per class one sentence
 * ("Flammable liquids IB and IC: 18 L of 20 L") and a bar, orange from 80 % and red over the limit; the items whose
 * amount is not known are named, never guessed: the first five, then all of them on asking.
 */
export function ControlAreaMeter({ locationId, limits }: { locationId: string; limits: readonly Limit[] }) {
  // Asked per location: another location's page (the same component, a new id) starts with the first five again.
  const [allFor, setAllFor] = useState<string | null>(null);
  const all = allFor === locationId;
  const params = { path: { id: locationId }, query: { unknown_limit: all ? ALL : FIRST } };
  const meter = useQuery({
    queryKey: keyOf('/locations/{id}/control-area/meter', params),
    queryFn: () => unwrap(api.GET('/locations/{id}/control-area/meter', { params })),
    // While all the names load, the first five stay on screen; never another location's meter.
    placeholderData: (previous) => (previous?.location_id === locationId ? previous : undefined),
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
        <MeterRow
          key={`${line.category}-${line.state}`}
          line={line}
          name={limitName(line, limits)}
          showAll={all && !meter.isPlaceholderData ? undefined : () => setAllFor(locationId)}
          loading={meter.isPlaceholderData}
        />
      ))}
    </Stack>
  );
}

function MeterRow({
  line,
  name,
  showAll,
  loading,
}: {
  line: MeterLine;
  name: string;
  showAll: (() => void) | undefined;
  loading: boolean;
}) {
  const l = level(line);
  const words = `${name}: ${amountOfLimit(line)}`;
  const rest = unknownRest(line);
  return (
    <div data-testid="meter-line" data-level={l}>
      <Text size="sm" fw={l === 'fine' ? 400 : 600} c={l === 'over' ? 'red.8' : undefined}>
        {words}
        {l === 'over' && `: ${overBy(line)}`}
        {l === 'near' && ': near the limit'}
      </Text>
      <Progress value={share(line)} color={COLOR[l]} aria-label={words} mt={2} />
      {line.unknown_containers > 0 && (
        <Text size="sm" c="dimmed" mt={2} data-testid="meter-unknown">
          Not counted, because their amount is not known (a unit size that is not a {line.state === 'solid' ? 'weight' : 'volume'}):{' '}
          {line.unknown_items.map((u, i) => (
            <span key={u.item_id ?? u.item_name}>
              {i > 0 && ', '}
              {u.item_id ? (
                <Anchor component={Link} to={`/inventory/items/${u.item_id}`} size="sm" underline="always">
                  {u.item_name}
                </Anchor>
              ) : (
                u.item_name
              )}{' '}
              ({containers(u.containers)})
            </span>
          ))}
          {rest ? ` ${rest}` : '.'}
          {rest && showAll && (
            <>
              {' '}
              <Button variant="subtle" size="compact-sm" onClick={showAll} loading={loading} data-testid="meter-unknown-all">
                Name them all
              </Button>
            </>
          )}
        </Text>
      )}
    </div>
  );
}
