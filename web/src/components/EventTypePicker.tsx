import type { EventKind } from '@labstock/client';
import { Checkbox, Fieldset, SimpleGrid, Stack, Text } from '@mantine/core';

// The event kinds a webhook may ask for: exactly the keys of the `webhooks` section of the API's OpenAPI document
// (EventKind in @labstock/client). A Record keyed by EventKind does not compile when the API publishes a kind this
// list lacks, or when it names one the API does not publish (docs/webhooks.md, "Published event schemas").
const KIND_LABELS: Record<EventKind, string> = {
  'inventory-item.created': 'an item is added',
  'inventory-item.updated': 'an item or its quantity changes',
  'inventory-item.deleted': 'an item is deleted',
  'inventory-item.expiring': 'an item is about to expire',
  'inventory-item.below-minimum': 'an item falls below its minimum',
  'order-request.created': 'a request is made',
  'order-request.ordered': 'a request is ordered',
  'order-request.updated': "a request's details change",
  'order-request.received': 'a request is received',
  'order-request.deleted': 'a request is deleted',
  'sales-order.placed': 'a shop order is placed',
  'sales-order-item.shipped': 'a shop line ships',
  'sales-order-item.delivered': 'a shop line is delivered',
  'sales-order-item.backordered': 'a shop line is backordered',
  'sales-order-item.cancelled': 'a shop line is cancelled',
  'shipment.created': 'a shipment is created',
  'shipment.delivered': 'a shipment is delivered',
  'type.created': 'a type is added',
  'type.updated': 'a type changes',
  'type.deleted': 'a type is deleted',
};

const RESOURCE_LABELS: Record<string, string> = {
  'inventory-item': 'Inventory items',
  'order-request': 'Order requests',
  'sales-order': 'Shop orders',
  'sales-order-item': 'Shop order items',
  shipment: 'Shipments',
  type: 'Types',
};

export const EVENT_KINDS = Object.keys(KIND_LABELS) as EventKind[];
const resourceOf = (kind: string) => kind.slice(0, kind.indexOf('.'));
const GROUPS = [...new Set(EVENT_KINDS.map(resourceOf))].map((resource) => ({
  resource,
  kinds: EVENT_KINDS.filter((k) => resourceOf(k) === resource),
}));

/** The short kind of a stored full type (`com.<vendor>.inventory-item.updated` → `inventory-item.updated`). */
export const shortEventType = (type: string): string => type.split('.').slice(2).join('.');

/**
 * The kinds a webhook receives. The API's `[]` is "every event", kinds added later included, so "Every event" is a
 * choice of its own (`every`), and unticking the last kind leaves none picked rather than meaning every event.
 */
export function EventTypePicker({
  every,
  onEveryChange,
  value,
  onChange,
}: {
  every: boolean;
  onEveryChange: (every: boolean) => void;
  value: string[];
  onChange: (kinds: string[]) => void;
}) {
  return (
    <Fieldset legend="Events">
      <Stack gap="sm">
        <Checkbox
          label="Every event, including kinds added later"
          checked={every}
          onChange={(e) => onEveryChange(e.currentTarget.checked)}
        />
        {!every && (
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md">
            {GROUPS.map((group) => (
              <Checkbox.Group
                key={group.resource}
                label={RESOURCE_LABELS[group.resource] ?? group.resource}
                value={value}
                onChange={(next) => onChange(orderKinds([...value.filter((k) => resourceOf(k) !== group.resource), ...next]))}
              >
                <Stack gap={4} mt={4}>
                  {group.kinds.map((kind) => (
                    <Checkbox key={kind} value={kind} label={kind} description={KIND_LABELS[kind]} />
                  ))}
                </Stack>
              </Checkbox.Group>
            ))}
          </SimpleGrid>
        )}
        {!every && (
          <Text size="sm" c={value.length === 0 ? 'red.9' : 'dimmed'} data-testid="kinds-picked">
            {value.length === 0 ? 'Pick at least one kind, or every event.' : `${value.length} of ${EVENT_KINDS.length} kinds`}
          </Text>
        )}
      </Stack>
    </Fieldset>
  );
}

/** The picked kinds in the picker's order, so a save sends a stable list. */
const orderKinds = (kinds: string[]): string[] => EVENT_KINDS.filter((k) => kinds.includes(k));

/** How a webhook's filter reads in a table: "every event" or the short kinds. */
export const describeEventTypes = (types: string[]): string =>
  types.length === 0 ? 'every event' : types.length <= 2 ? types.map(shortEventType).join(', ') : `${types.length} kinds`;
