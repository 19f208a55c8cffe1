import { Anchor, Card, Group, SimpleGrid, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { type Item, lotsOf, matchReason, placesOf, quantityOf, soonestExpiry } from '../inventory-rows';

/**
 * A page of items: a table on a wide screen, cards on a phone (name, quantity and expiry first, so they are seen
 * without scrolling sideways). `showLab`: the list spans several labs, each row names its lab. `q`: the search,
 * so a row says why it matched when the name does not hold the words.
 */
export function InventoryRows(props: { items: Item[]; q: string; showLab: boolean; sort: string; onSort: (sort: string) => void }) {
  const phone = useMediaQuery('(max-width: 40em)', false, { getInitialValueInEffect: false });
  const { items, q, showLab } = props;
  const anyLot = items.some((i) => lotsOf(i) !== '');
  const anyPlace = items.some((i) => placesOf(i) !== '');
  if (phone)
    return (
      <Stack gap="xs" data-testid="items-cards" aria-label="Items">
        {items.map((item) => (
          <Card key={item.id} withBorder padding="sm" data-testid="item-card">
            <Anchor component={Link} to={`/inventory/items/${item.id}`} fw={600}>
              {item.name}
            </Anchor>
            {showLab && (
              <Text size="xs" c="dimmed">
                {item.lab.name}
              </Text>
            )}
            <Reason item={item} q={q} />
            <SimpleGrid cols={2} spacing="xs" mt={4}>
              <Field label="Quantity" value={quantityOf(item)} />
              <Field label="Expires" value={soonestExpiry(item) || '—'} />
              {lotsOf(item) && <Field label="Lot" value={lotsOf(item)} />}
              {placesOf(item) && <Field label="Location" value={placesOf(item)} />}
            </SimpleGrid>
          </Card>
        ))}
      </Stack>
    );
  return (
    <Table.ScrollContainer minWidth={600}>
      <Table striped highlightOnHover aria-label="Items" data-testid="items-table">
        <Table.Thead>
          <Table.Tr>
            <SortHeader label="Name" column="name" sort={props.sort} onSort={props.onSort} />
            {showLab && <Table.Th>Lab</Table.Th>}
            <Table.Th>Vendor</Table.Th>
            <Table.Th>Catalog no.</Table.Th>
            {anyLot && <Table.Th>Lot</Table.Th>}
            {anyPlace && <Table.Th>Location</Table.Th>}
            <Table.Th>Quantity</Table.Th>
            <SortHeader label="Expires" column="expiration_date" sort={props.sort} onSort={props.onSort} />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={item.id}>
              <Table.Td>
                <Anchor component={Link} to={`/inventory/items/${item.id}`}>
                  {item.name}
                </Anchor>
                <Reason item={item} q={q} />
              </Table.Td>
              {showLab && <Table.Td data-testid="item-lab">{item.lab.name}</Table.Td>}
              <Table.Td>{item.vendor}</Table.Td>
              <Table.Td>{item.catalog_number}</Table.Td>
              {anyLot && <Table.Td>{lotsOf(item)}</Table.Td>}
              {anyPlace && <Table.Td>{placesOf(item)}</Table.Td>}
              <Table.Td>{quantityOf(item)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{soonestExpiry(item)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Reason(props: { item: Item; q: string }) {
  const reason = props.q ? matchReason(props.item, props.q) : null;
  if (!reason) return null;
  return (
    <Text size="xs" c="dimmed" data-testid="match-reason">
      Found by {reason}
    </Text>
  );
}

function Field(props: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {props.label}
      </Text>
      <Text size="sm">{props.value}</Text>
    </div>
  );
}

/** A column header that orders the table by it: ascending first, then each click reverses it. */
function SortHeader(props: { label: string; column: string; sort: string; onSort: (sort: string) => void }) {
  const ascending = props.sort === props.column;
  const descending = props.sort === `-${props.column}`;
  const arrow: ReactNode = ascending ? ' ↑' : descending ? ' ↓' : '';
  return (
    <Table.Th aria-sort={ascending ? 'ascending' : descending ? 'descending' : 'none'}>
      <Group gap={0} wrap="nowrap">
        <UnstyledButton
          fw={700}
          fz="sm"
          onClick={() => props.onSort(ascending ? `-${props.column}` : props.column)}
          aria-label={`${props.label}, sort ${ascending ? 'descending' : 'ascending'}`}
        >
          {props.label}
          <span aria-hidden="true">{arrow}</span>
        </UnstyledButton>
      </Group>
    </Table.Th>
  );
}
