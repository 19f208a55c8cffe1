import { Anchor, Checkbox, Text } from '@mantine/core';
import { Link } from 'react-router';
import { type Amount, amountWords } from '../data/amounts';
import type { Column } from '../data/DataTable';
import { type Item, lotsOf, matchReason, placesOf, quantityOf, soonestExpiry } from '../inventory-rows';
import type { InventorySelection } from '../inventory-selection';
import { Pictograms } from './hazards/Pictogram';

/**
 * The inventory list's columns for the shared DataTable (docs/web.md, "Data layer"): on a phone each item is a card
 * with its name as the heading and Quantity and Expires first, so they are seen without scrolling sideways.
 * `showLab`: the list spans several labs, each row names its lab. `q`: the search, so a row says why it matched when
 * the name does not hold the words. Lot and Location show only when some item of the page has one. `selection`: a
 * checkbox first in each row (on a phone, under the card's heading, with its word beside it).
 */
export function inventoryColumns(
  items: Item[],
  {
    q,
    showLab,
    selection,
    phone = false,
    pictograms,
    amounts,
  }: {
    q: string;
    showLab: boolean;
    selection?: InventorySelection;
    phone?: boolean;
    pictograms?: Map<string, string[]>;
    amounts?: Map<string, Amount>;
  },
): Column<Item>[] {
  const anyLot = items.some((i) => lotsOf(i) !== '');
  const anyPlace = items.some((i) => placesOf(i) !== '');
  const columns: (Column<Item> | false)[] = [
    selection !== undefined && {
      key: 'select',
      header: 'Select',
      bare: true,
      cell: (item) => (
        <Checkbox
          aria-label={`Select ${item.name}`}
          label={phone ? 'Select' : undefined}
          checked={selection.has(item.id)}
          onChange={(e) => selection.toggle(item, e.currentTarget.checked)}
          data-testid="select-item"
        />
      ),
    },
    {
      key: 'name',
      header: 'Name',
      sort: 'name',
      phone: 'title',
      cell: (item) => (
        <>
          <Anchor component={Link} to={`/inventory/items/${item.id}`} fw={500}>
            {item.name}
          </Anchor>
          <Reason item={item} q={q} />
        </>
      ),
    },
    showLab && { key: 'lab', header: 'Lab', cell: (item) => <span data-testid="item-lab">{item.lab.name}</span> },
    { key: 'quantity', header: 'Quantity', cell: (item) => quantityOf(item) },
    // Quantity × unit size in its unit family (docs/hazard-reports.md); "…" until the page's amounts arrive.
    amounts !== undefined && { key: 'amount', header: 'Amount', cell: (item) => amountWords(amounts.get(item.id)) },
    {
      key: 'expires',
      header: 'Expires',
      sort: 'expiration_date',
      sortWords: ['Expires soonest first', 'Expires latest first'],
      cell: (item) => <span style={{ whiteSpace: 'nowrap' }}>{soonestExpiry(item) || '—'}</span>,
    },
    // The GHS pictograms of each item (docs/hazards.md), when some item of the page has any.
    items.some((i) => (pictograms?.get(i.id)?.length ?? 0) > 0) && {
      key: 'hazards',
      header: 'Hazards',
      cell: (item) => <Pictograms codes={pictograms?.get(item.id) ?? []} size={24} />,
    },
    anyLot && { key: 'lot', header: 'Lot', cell: (item) => lotsOf(item) },
    anyPlace && { key: 'location', header: 'Location', cell: (item) => placesOf(item) },
    { key: 'vendor', header: 'Vendor', cell: (item) => item.vendor },
    { key: 'catalog', header: 'Catalog no.', cell: (item) => item.catalog_number },
  ];
  return columns.filter((c): c is Column<Item> => c !== false);
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
