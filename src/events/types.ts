// Every event kind the service emits (docs/product.md §7): `resource.kind`, and the data key that holds the resource.
export const EVENT_RESOURCES = {
  'inventory-item': { dataKey: 'inventory_item', kinds: ['created', 'updated', 'deleted'] },
  'order-request': { dataKey: 'order_request', kinds: ['created', 'deleted', 'ordered', 'received'] },
  'sales-order': { dataKey: 'sales_order', kinds: ['placed'] },
  'sales-order-item': { dataKey: 'sales_order_item', kinds: ['backordered', 'cancelled', 'delivered', 'shipped'] },
  shipment: { dataKey: 'shipment', kinds: ['created', 'delivered'] },
  type: { dataKey: 'type', kinds: ['created', 'deleted', 'updated'] },
} as const;

export type EventResource = keyof typeof EVENT_RESOURCES;
/** The 17 kinds of the contract (docs/contract.md), exactly as it names them. */
export type ContractEventType = {
  [R in EventResource]: `${R}.${(typeof EVENT_RESOURCES)[R]['kinds'][number]}`;
}[EventResource];

/**
 * Labstock's own kinds beyond the contract's (docs/alerts.md): reminders and alerts about an item. Their `data`
 * holds the item under `inventory_item`, like the contract's item events, and what caused it under `alert`.
 */
export const ALERT_EVENT_TYPES = ['inventory-item.expiring', 'inventory-item.below-minimum'] as const;
export type AlertEventType = (typeof ALERT_EVENT_TYPES)[number];

/**
 * Labstock's own kind about order requests (docs/ordering.md): their details changed (PATCH /order-requests/{id}, or
 * the shop filling them). Status changes keep emitting exactly the contract's kinds.
 */
export const ORDER_DETAIL_EVENT_TYPES = ['order-request.updated'] as const;
export type OrderDetailEventType = (typeof ORDER_DETAIL_EVENT_TYPES)[number];

export type ShortEventType = ContractEventType | AlertEventType | OrderDetailEventType;

export const CONTRACT_EVENT_TYPES: ContractEventType[] = Object.entries(EVENT_RESOURCES).flatMap(([resource, def]) =>
  def.kinds.map((kind) => `${resource}.${kind}` as ContractEventType),
);

/** Every kind the service emits: the contract's, then Labstock's own. Webhooks with no `event_types` get them all. */
export const SHORT_EVENT_TYPES: ShortEventType[] = [...CONTRACT_EVENT_TYPES, ...ALERT_EVENT_TYPES, ...ORDER_DETAIL_EVENT_TYPES];

export const isAlertEventType = (short: string): short is AlertEventType => (ALERT_EVENT_TYPES as readonly string[]).includes(short);

export const fullEventType = (vendor: string, short: string): string => `com.${vendor}.${short}`;

export const dataKeyOf = (short: ShortEventType): string => EVENT_RESOURCES[short.split('.')[0] as EventResource].dataKey;

/** Every key of a kind's `data`: the resource's, and `alert` beside it for the alert kinds. */
export const dataKeysOf = (short: ShortEventType): string[] => (isAlertEventType(short) ? [dataKeyOf(short), 'alert'] : [dataKeyOf(short)]);

/**
 * Expands what a client may write in `event_types` (full type, `resource.kind`, `resource.*`) into full type
 * strings. Returns the unknown entries separately so the caller can name them.
 */
export function expandEventTypes(vendor: string, requested: string[]): { types: string[]; unknown: string[] } {
  const prefix = `com.${vendor}.`;
  const types = new Set<string>();
  const unknown: string[] = [];
  for (const raw of requested) {
    const entry = raw.trim();
    const short = entry.startsWith(prefix) ? entry.slice(prefix.length) : entry;
    if (short.endsWith('.*')) {
      const resource = short.slice(0, -2);
      const matches = SHORT_EVENT_TYPES.filter((t) => t.startsWith(`${resource}.`));
      if (matches.length === 0) unknown.push(raw);
      for (const m of matches) types.add(fullEventType(vendor, m));
    } else if ((SHORT_EVENT_TYPES as string[]).includes(short)) {
      types.add(fullEventType(vendor, short));
    } else {
      unknown.push(raw);
    }
  }
  // Stable order: the catalogue's order, so responses do not depend on how the client spelled the list.
  const ordered = SHORT_EVENT_TYPES.map((t) => fullEventType(vendor, t)).filter((t) => types.has(t));
  return { types: ordered, unknown };
}
