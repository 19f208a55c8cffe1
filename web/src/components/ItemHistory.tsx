import type { components } from '@labstock/client';
import { Anchor, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../api';
import { keyOf } from '../data/keys';
import { fieldWords } from '../item-fields';
import { ErrorNotice } from './ErrorNotice';
import { Loading } from './Fields';

type Change = components['schemas']['InventoryItemChange'];

// An item's history as sentences (docs/web.md, "Their words"): "Max used 0.2 of lot GR3323 in Room 101 / Freezer A",
// "Ada received 2 into Shelf A". The server names each entry's lot and place (GET /inventory-items/{id}/history).

/** a − b of two decimal strings, exactly ("4.5" − "4.3" is "0.2", not 0.20000000000000018). */
export function decimalDifference(a: string, b: string): string {
  const scale = Math.max((a.split('.')[1] ?? '').length, (b.split('.')[1] ?? '').length);
  const units = (s: string) => {
    const [whole, frac = ''] = s.replace('-', '').split('.');
    const n = BigInt(whole! + frac.padEnd(scale, '0'));
    return s.startsWith('-') ? -n : n;
  };
  const diff = units(a) - units(b);
  const sign = diff < 0n ? '-' : '';
  const digits = (diff < 0n ? -diff : diff).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const frac = scale > 0 ? digits.slice(digits.length - scale).replace(/0+$/, '') : '';
  return `${sign}${whole}${frac ? `.${frac}` : ''}`;
}

const path = (l: Change['location']): string | null => (l ? l.pathNames.join(' / ') : null);
const ofLot = (c: Change): string => (c.lot_number ? ` of lot ${c.lot_number}` : c.instance_id ? ' without a lot number' : '');
const theLot = (c: Change): string => (c.lot_number ? `lot ${c.lot_number}` : 'an instance without a lot number');
const inPlace = (c: Change, word = 'in'): string => (path(c.location) ? ` ${word} ${path(c.location)}` : '');
// The item's own fields by their words (web/src/item-fields.ts); other entries' fields are said from their names.
const words = (field: string): string =>
  fieldWords(field) ??
  (field === 'minimum_quantity' ? 'the minimum quantity' : `the ${field.replace(/^instance\./, '').replaceAll('_', ' ')}`);

/** One change as a sentence, without the person's name (the caller puts it first). */
export function changeSentence(c: Change): string {
  const note = c.note && !c.order_request_id ? ` (“${c.note}”)` : '';
  if (c.order_request_id || c.field === 'received') {
    const amount =
      c.field === 'quantity' && c.old_value !== null && c.new_value !== null ? decimalDifference(c.new_value, c.old_value) : c.new_value;
    return `received ${amount}${ofLot(c)}${path(c.location) ? ` into ${path(c.location)}` : ''}`;
  }
  // A count's apply (docs/stocktake.md): what was found, and what had been recorded; the count is linked after.
  if (c.stocktake_id && c.field === 'instance.quantity')
    return `set ${theLot(c)}${inPlace(c)} to ${c.new_value} as counted, ${c.old_value} recorded`;
  if (c.stocktake_id && c.field === 'instance.location_id')
    return `found ${theLot(c)} at ${path(c.new_location) ?? 'no location'} in a count${path(c.old_location) ? ` (recorded at ${path(c.old_location)})` : ''}`;
  switch (c.field) {
    case 'instance.added':
      return `added ${c.new_value}${ofLot(c)}${inPlace(c, 'into')}${note}`;
    case 'quantity':
    case 'instance.quantity': {
      if (c.old_value === null || c.new_value === null)
        return `set the quantity${ofLot(c)}${inPlace(c)} to ${c.new_value ?? 'nothing'}${note}`;
      const delta = decimalDifference(c.new_value, c.old_value);
      const verb = delta.startsWith('-') ? `used ${delta.slice(1)}` : `added ${delta}`;
      return `${verb}${ofLot(c)}${inPlace(c)}, ${c.old_value} → ${c.new_value}${note}`;
    }
    case 'instance.location_id':
      return `moved ${theLot(c)} ${path(c.old_location) ? `from ${path(c.old_location)} ` : ''}to ${path(c.new_location) ?? 'no location'}`;
    case 'instance.lot_number':
      return `changed the lot${c.old_value ? ` from ${c.old_value}` : ''} to ${c.new_value ?? 'none'}${inPlace(c)}`;
    case 'instance.expiration_date':
      return `set the expiry${ofLot(c)}${inPlace(c)} to ${c.new_value ?? 'none'}`;
    case 'instance.archived':
      return `archived ${theLot(c)}${inPlace(c)} (${c.old_value} left)${note}`;
    // A container's GTIN and serial number (docs/scanning.md "Identifiers"), corrected on their own.
    case 'instance.gtin':
      return c.new_value === null ? `cleared the GTIN${ofLot(c)}${inPlace(c)}` : `set the GTIN${ofLot(c)}${inPlace(c)} to ${c.new_value}`;
    case 'instance.serial_number':
      return c.new_value === null
        ? `cleared the serial number${ofLot(c)}${inPlace(c)}`
        : `set the serial number${ofLot(c)}${inPlace(c)} to ${c.new_value}`;
    case 'migrated_to_instances':
      return 'moved the item to tracking each container separately';
    // docs/hazards.md: null is "the same as its type", "" is "no hazards" recorded on purpose.
    case 'hazard_statements':
      return c.new_value === null
        ? "set the hazards to its type's"
        : c.new_value === ''
          ? 'recorded that the item has no hazards'
          : `set the hazard statements to ${c.new_value.split(' ').join(', ')}`;
    default:
      return c.new_value === null ? `cleared ${words(c.field)}${note}` : `set ${words(c.field)} to ${c.new_value}${note}`;
  }
}

/** Who changed what, when (GET /inventory-items/{id}/history), newest first, one sentence each. */
export function ItemHistory({ itemId }: { itemId: string }) {
  const history = useQuery({
    queryKey: keyOf('/inventory-items/{id}/history', { path: { id: itemId } }),
    queryFn: () => unwrap(api.GET('/inventory-items/{id}/history', { params: { path: { id: itemId } } })),
  });
  if (history.isError) return <ErrorNotice error={history.error} />;
  if (history.isPending) {
    return <Loading label="Loading the history" size="sm" />;
  }
  if (history.data.length === 0) return <Text c="dimmed">No changes yet.</Text>;
  const rows = [...history.data].sort((a, b) => b.changed_at.localeCompare(a.changed_at));
  return (
    <Stack component="ol" gap={6} p={0} m={0} style={{ listStyle: 'none' }} aria-label="History" data-testid="history-table">
      {rows.map((change) => (
        <li key={change.id} data-testid="history-entry">
          <Text size="sm">
            {change.changed_by ? `${change.changed_by.first_name} ${change.changed_by.last_name}` : 'Someone'} {changeSentence(change)}
            {change.stocktake_id && (
              <>
                {' '}
                (
                <Anchor component={Link} to={`/stocktakes/${change.stocktake_id}`}>
                  the count
                </Anchor>
                )
              </>
            )}
            {change.order_request_id && (
              <>
                {' '}
                (
                <Anchor component={Link} to={`/order-requests/${change.order_request_id}`}>
                  the order request
                </Anchor>
                )
              </>
            )}
          </Text>
          <Text size="xs" c="dimmed">
            {new Date(change.changed_at).toLocaleString()}
          </Text>
        </li>
      ))}
    </Stack>
  );
}
