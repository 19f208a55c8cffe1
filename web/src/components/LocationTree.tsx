import { ActionIcon, Anchor, Box, Group, Menu } from '@mantine/core';
import { Link } from 'react-router';
import { type Location, type LocationNode, pathOf } from '../locations';
import type { LocationAction } from './LocationDialog';

/**
 * The tree as nested lists: each name links to the inventory below that location, and each location has a menu of
 * changes. Links and menu buttons are ordinary tab stops, and Mantine's menu opens and moves with the arrow keys.
 */
export function LocationTree({ labId, nodes, onAction }: { labId: string; nodes: LocationNode[]; onAction: (a: LocationAction) => void }) {
  return (
    <Box component="ul" m={0} pl="lg" style={{ listStyle: 'disc' }}>
      {nodes.map((node) => (
        <li key={node.location.id}>
          <LocationRow labId={labId} location={node.location} onAction={onAction} />
          {node.children.length > 0 && <LocationTree labId={labId} nodes={node.children} onAction={onAction} />}
        </li>
      ))}
    </Box>
  );
}

export function LocationRow({ labId, location, onAction }: { labId: string; location: Location; onAction: (a: LocationAction) => void }) {
  const path = pathOf(location);
  const act = (kind: LocationAction['kind']) => () => onAction({ kind, location });
  return (
    <Group gap={4} wrap="nowrap" data-testid="location-row" data-path={path}>
      <Anchor
        component={Link}
        to={`/inventory?lab=${labId}&location_id=${location.id}`}
        aria-label={`Inventory in ${path}`}
        title={`Inventory in ${path}`}
      >
        {location.name}
      </Anchor>
      <Menu position="bottom-start" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" size="sm" aria-label={`Change ${path}`}>
            ⋯
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
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
