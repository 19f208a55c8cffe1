import { ActionIcon, Anchor, Badge, Box, Group, Menu } from '@mantine/core';
import { IconDots, IconMapPin } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatCount, useLocationCount } from '../home/counts';
import { type Location, type LocationNode, pathOf } from '../locations';
import type { LocationAction } from './LocationDialog';

/**
 * The tree as nested lists, each level indented along a line: each name links to the inventory below that location,
 * with the number of items kept there or below (GET /inventory-items?location_id=…, its X-Total-Count), and each
 * location has a menu of changes. Links and menu buttons are ordinary tab stops, and Mantine's menu opens and moves
 * with the arrow keys.
 */
export function LocationTree({
  labId,
  nodes,
  onAction,
  onCount,
  nested = false,
}: {
  labId: string;
  nodes: LocationNode[];
  onAction: (a: LocationAction) => void;
  /** Starts (or resumes) counting the location and everything below it (docs/stocktake.md). */
  onCount?: (location: Location) => void;
  nested?: boolean;
}) {
  return (
    <Box
      component="ul"
      m={0}
      pl={nested ? 'md' : 0}
      ml={nested ? 8 : 0}
      style={{ listStyle: 'none', borderLeft: nested ? '1px solid var(--mantine-color-gray-4)' : undefined }}
    >
      {nodes.map((node) => (
        <li key={node.location.id}>
          <LocationRow labId={labId} location={node.location} onAction={onAction} onCount={onCount} />
          {node.children.length > 0 && <LocationTree labId={labId} nodes={node.children} onAction={onAction} onCount={onCount} nested />}
        </li>
      ))}
    </Box>
  );
}

function ItemCount({ labId, locationId, path }: { labId: string; locationId: string; path: string }) {
  const count = useLocationCount(labId, locationId);
  if (count.isError) return null;
  const n = formatCount(count.data);
  const words = count.data ? `${n} item${count.data.total === 1 && !count.data.atLeast ? '' : 's'} in ${path} and below` : undefined;
  return (
    <Badge
      variant="light"
      color={count.data?.total ? undefined : 'gray'}
      size="sm"
      title={words}
      aria-label={words}
      data-testid="location-count"
    >
      {n}
    </Badge>
  );
}

export function LocationRow({
  labId,
  location,
  onAction,
  onCount,
}: {
  labId: string;
  location: Location;
  onAction: (a: LocationAction) => void;
  onCount?: (location: Location) => void;
}) {
  const path = pathOf(location);
  const act = (kind: LocationAction['kind']) => () => onAction({ kind, location });
  return (
    <Group gap={6} wrap="nowrap" py={2} data-testid="location-row" data-path={path}>
      <IconMapPin size={16} stroke={1.6} color="var(--mantine-color-gray-6)" aria-hidden />
      <Anchor
        component={Link}
        to={`/inventory?lab=${labId}&location=${location.id}`}
        aria-label={`Inventory in ${path}`}
        title={`Inventory in ${path}`}
      >
        {location.name}
      </Anchor>
      <ItemCount labId={labId} locationId={location.id} path={path} />
      <Menu position="bottom-start" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Change ${path}`}>
            <IconDots size={16} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {onCount && <Menu.Item onClick={() => onCount(location)}>Count the stock here</Menu.Item>}
          <Menu.Item component={Link} to={`/locations/${location.id}?lab=${labId}`}>
            Control area and what is kept apart
          </Menu.Item>
          <Menu.Item component={Link} to={`/locations?lab=${labId}&location=${location.id}`}>
            Label
          </Menu.Item>
          <Menu.Item onClick={act('add')}>Add a sub-location</Menu.Item>
          <Menu.Item onClick={act('rename')}>Rename</Menu.Item>
          <Menu.Item onClick={act('move')}>Move</Menu.Item>
          <Menu.Item color="red" onClick={act('delete')}>
            Delete
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
