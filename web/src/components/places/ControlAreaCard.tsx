import { Badge, Button, Group, List, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api';
import { keyOf } from '../../data/keys';
import { useSubmission } from '../../forms/submission';
import { ErrorNotice } from '../ErrorNotice';
import { Loading } from '../Fields';
import { ControlAreaForm } from './ControlAreaForm';
import { ControlAreaMeter } from './ControlAreaMeter';
import { invalidateControlArea } from './cache';
import type { ControlArea } from './types';
import { limitName } from './words';

/**
 * Whether the location is a control area (docs/safety.md), its options and limits, and what it holds against them.
 * Org admins and the lab's managers (`can_edit`) mark it, change its limits and unmark it; others read.
 */
export function ControlAreaCard({ locationId, name }: { locationId: string; name: string }) {
  const [editing, setEditing] = useState(false);
  const area = useQuery({
    queryKey: keyOf('/locations/{id}/control-area', { path: { id: locationId } }),
    queryFn: () => unwrap(api.GET('/locations/{id}/control-area', { params: { path: { id: locationId } } })),
  });
  if (area.isError) return <ErrorNotice error={area.error} />;
  if (area.isPending) return <Loading label="Loading the control area" size="sm" />;
  const a = area.data;
  if (editing) return <ControlAreaForm area={a} name={name} onDone={() => setEditing(false)} />;
  if (!a.marked)
    return (
      <Stack gap="xs" data-testid="control-area">
        <Text size="sm" data-testid="control-area-status">
          {name} is not a control area. A control area (a room, or a part of a building separated by fire barriers) counts everything stored
          in it and below it against the fire code's limits.
        </Text>
        {a.can_edit && (
          <Group>
            <Button size="sm" variant="default" onClick={() => setEditing(true)}>
              Mark as a control area
            </Button>
          </Group>
        )}
      </Stack>
    );
  return (
    <Stack gap="sm" data-testid="control-area">
      <Group gap="xs">
        <Badge variant="light">Control area</Badge>
        <Text size="sm" data-testid="control-area-status">
          {optionsWords(a)}
        </Text>
      </Group>
      <ControlAreaMeter locationId={locationId} limits={a.limits} />
      <LimitsList area={a} />
      {a.can_edit && <Manage area={a} onEdit={() => setEditing(true)} />}
    </Stack>
  );
}

function optionsWords(a: ControlArea): string {
  const sprinklered = a.sprinklered ? 'The building is sprinklered' : 'The building is not sprinklered';
  const cabinets = a.cabinets ? 'things are kept in approved storage cabinets' : 'no approved storage cabinets';
  return `${sprinklered}; ${cabinets}.`;
}

function LimitsList({ area }: { area: ControlArea }) {
  const set = area.limits.filter((l) => l.source === 'set');
  return (
    <Stack gap={4}>
      {set.length > 0 ? (
        <>
          <Text size="sm" fw={600}>
            Limits set by hand
          </Text>
          <List size="sm" data-testid="limits-set">
            {set.map((l) => (
              <List.Item key={`${l.category}-${l.state}`}>
                {limitName(l, area.limits)}: {l.limit} {l.unit}
              </List.Item>
            ))}
          </List>
          <Text size="sm" c="dimmed">
            Every other limit follows the fire code's default for these options.
          </Text>
        </>
      ) : (
        <Text size="sm" c="dimmed">
          Every limit follows the fire code's default for these options.
        </Text>
      )}
      <details>
        <summary style={{ cursor: 'pointer', fontSize: 'var(--mantine-font-size-sm)' }}>All {area.limits.length} limits</summary>
        <List size="sm" mt={4} data-testid="limits-all">
          {area.limits.map((l) => (
            <List.Item key={`${l.category}-${l.state}`}>
              {limitName(l, area.limits)}: {l.limit} {l.unit} {l.source === 'set' ? '(set by hand)' : '(default)'}
            </List.Item>
          ))}
        </List>
      </details>
    </Stack>
  );
}

function Manage({ area, onEdit }: { area: ControlArea; onEdit: () => void }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const unmark = useSubmission({
    name: `unmark-control-area-${area.location_id}`,
    renewOnSuccess: true,
    send: () => unwrap(api.DELETE('/locations/{id}/control-area', { params: { path: { id: area.location_id } } })),
    onSuccess: () => {
      setConfirming(false);
      return invalidateControlArea(queryClient, area.location_id);
    },
  });
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Button size="sm" variant="default" onClick={onEdit}>
          Change options and limits
        </Button>
        {!confirming && (
          <Button size="sm" variant="subtle" color="red" onClick={() => setConfirming(true)}>
            No longer a control area
          </Button>
        )}
      </Group>
      {confirming && (
        <Group gap="xs">
          <Text size="sm">Its limits set by hand are forgotten. Unmark it?</Text>
          <Button size="xs" color="red" loading={unmark.isPending} onClick={() => unmark.submit()}>
            Yes, unmark it
          </Button>
          <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
            Keep it
          </Button>
        </Group>
      )}
      {unmark.isError && <ErrorNotice error={unmark.error} title="Not unmarked" />}
    </Stack>
  );
}
