import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { TSchema } from 'typebox';
import { InventoryItemAlert } from '../alerts/schemas.js';
import { dataKeyOf, dataKeysOf, fullEventType, SHORT_EVENT_TYPES, type ShortEventType } from '../events/types.js';
import { InventoryItem } from '../inventory/schemas.js';
import { EVENT_HISTORY_LIMIT, OrderRequest, OrderRequestWithHistory } from '../order-requests/schemas.js';
import { SalesOrder, SalesOrderItem, Shipment } from '../shop/schemas.js';
import { InventoryType } from '../types/schemas.js';
import { inlineNamed } from './named-schemas.js';

// What each event carries (docs/product.md §7), from the same TypeBox schemas that serialize the API's responses. The
// OpenAPI document publishes these in its `webhooks` section and the event tests validate emitted events against
// that published document, so a payload that drifts from its schema fails a test. The type below makes a kind
// added to EVENT_RESOURCES without a schema a compile error (and src/server/event-schemas.test.ts checks it at run time).

export interface EventPayload {
  /** The resource under `data.<dataKey>`. */
  schema: TSchema;
  /** When the event is emitted, for the document. */
  when: string;
  /** More keys of `data` beside the resource (src/events/types.ts dataKeysOf): the alert kinds' `alert`. */
  extra?: Record<string, TSchema>;
}

export const EVENT_PAYLOADS: { readonly [T in ShortEventType]: EventPayload } = {
  'inventory-item.created': {
    schema: InventoryItem,
    when: 'An inventory item was created (also when receiving an order request adds a new item). The full item with `instances`.',
  },
  'inventory-item.updated': {
    schema: InventoryItem,
    when: 'Any field or instance of an inventory item changed (edits, quantity adjustments, instance changes, receiving into an existing item, renaming or moving a location it is stored in). The full item with `instances`, not only the changed instance.',
  },
  'inventory-item.deleted': { schema: InventoryItem, when: 'An inventory item was deleted. Its last state.' },
  'order-request.created': { schema: OrderRequest, when: 'An order request was created.' },
  'order-request.deleted': { schema: OrderRequest, when: 'An order request was deleted. Its last state.' },
  'order-request.ordered': {
    schema: OrderRequestWithHistory,
    when: `An order request entered ORDERED from CREATED or APPROVED (from the API or the shop). The payload adds the newest ${EVENT_HISTORY_LIMIT} entries of its history (\`events\`, oldest first; GET /order-requests/{id}/history has all) and \`updated_by\`.`,
  },
  'order-request.received': {
    schema: OrderRequest,
    when: 'An order request was received (RECEIVED); its goods were added to inventory in the same transaction.',
  },
  'sales-order.placed': { schema: SalesOrder, when: 'A shop checkout placed a sales order.' },
  'sales-order-item.backordered': {
    schema: SalesOrderItem,
    when: 'A line of a sales order was backordered. The line with its order request.',
  },
  'sales-order-item.cancelled': { schema: SalesOrderItem, when: 'A line of a sales order was cancelled. The line with its order request.' },
  'sales-order-item.delivered': { schema: SalesOrderItem, when: 'A line of a sales order was delivered. The line with its order request.' },
  'sales-order-item.shipped': { schema: SalesOrderItem, when: 'A line of a sales order was shipped. The line with its order request.' },
  'shipment.created': { schema: Shipment, when: 'A shipment of a sales order line was created.' },
  'shipment.delivered': { schema: Shipment, when: 'A shipment was delivered.' },
  'type.created': { schema: InventoryType, when: 'An inventory type was created. The type with its lab.' },
  'type.updated': { schema: InventoryType, when: 'An inventory type was renamed. The type with its lab.' },
  'type.deleted': { schema: InventoryType, when: 'An inventory type was deleted. Its last state, with its lab.' },
  'inventory-item.expiring': {
    schema: InventoryItem,
    extra: { alert: InventoryItemAlert },
    when: "Labstock's own kind (not in the contract's list; docs/alerts.md): an expiry of the item (its own in a legacy lab, an active instance's in a lab that uses instances) falls within its `auto_reminder` window (`1WEEK`, `2WEEK`, `1MONTH`, `3MONTH`; already expired included). Once per item until the condition clears. `data` holds the item and, beside it, `alert`.",
  },
  'inventory-item.below-minimum': {
    schema: InventoryItem,
    extra: { alert: InventoryItemAlert },
    when: "Labstock's own kind (not in the contract's list; docs/alerts.md): the item's quantity is below the minimum set with PUT /inventory-items/{id}/minimum-quantity. Once per item until it is back at or above the minimum. `data` holds the item and, beside it, `alert`.",
  },
  'order-request.updated': {
    schema: OrderRequestWithHistory,
    when: `Labstock's own kind (not in the contract's list; docs/ordering.md): details of an order request changed (PATCH /order-requests/{id}: notes, unit_size, invoice_number, requisition_number, confirmation_number, tracking_number, purchase_order_number, shipping_and_handling, details, is_urgent, spend_tracking_code; or the shop filling purchase_order_number at checkout, unit_size from the product's unit and tracking_number from its shipments). The payload adds the newest ${EVENT_HISTORY_LIMIT} entries of its history (\`events\`, oldest first, the last entry of type UPDATED naming each changed field; GET /order-requests/{id}/history has all) and \`updated_by\`. Status changes never emit it.`,
  },
};

/**
 * A self-contained plain copy: the document must not share (or let anyone mutate) the objects that serialize
 * responses, and a receiver compiles one kind's schema on its own, so the named resources are written out in it.
 */
const plain = (schema: TSchema): unknown => inlineNamed(schema);

/** JSON Schema (2020-12) of one kind's whole CloudEvents envelope, as delivered and as stored in `events`. */
export function eventEnvelopeSchema(vendor: string, short: ShortEventType): Record<string, unknown> {
  const dataKey = dataKeyOf(short);
  const extra = Object.entries(EVENT_PAYLOADS[short].extra ?? {}).map(([key, schema]) => [key, plain(schema)]);
  return {
    title: `Event ${short}`,
    type: 'object',
    required: ['specversion', 'id', 'source', 'type', 'datacontenttype', 'time', 'data'],
    additionalProperties: false,
    properties: {
      specversion: { type: 'string', const: '1.0' },
      id: { type: 'string', format: 'uuid', description: 'Unique per event; also sent as webhook-id.' },
      source: { type: 'string', format: 'uri', description: "EVENT_SOURCE, the service's site URL." },
      type: { type: 'string', const: fullEventType(vendor, short) },
      subject: {
        type: 'string',
        description:
          'CloudEvents structured mode only (a webhook whose settings say format cloudevents): the id of the resource in data. Never in application/json deliveries.',
      },
      datacontenttype: { type: 'string', const: 'application/json' },
      time: { type: 'string', format: 'date-time' },
      data: {
        type: 'object',
        required: dataKeysOf(short),
        additionalProperties: false,
        properties: { [dataKey]: plain(EVENT_PAYLOADS[short].schema), ...Object.fromEntries(extra) },
      },
    },
  };
}

const header = (name: string, description: string, schema: Record<string, unknown> = { type: 'string' }) => ({
  name,
  in: 'header',
  required: false,
  description,
  schema,
});

/** Sent on signed webhooks (the default) only; see docs/webhooks.md. */
const SIGNING_HEADERS = [
  header('webhook-id', 'Standard Webhooks: the event id, the same on every retry and redelivery (deduplicate on it).'),
  header('webhook-timestamp', 'Standard Webhooks: Unix seconds of this attempt.', { type: 'string', pattern: '^[0-9]+$' }),
  header(
    'webhook-signature',
    'Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded part of the webhook\'s `signing_key` after `whsec_`. During a key rotation, one signature per key, space-separated.',
  ),
  header('Signature', 'The same value as webhook-signature, for clients that read this header.'),
];

type OpenApiOption = NonNullable<FastifyDynamicSwaggerOptions['openapi']>;
/** The `webhooks` field of the plugin's `openapi` option (OpenAPI 3.1 and later). */
export type OpenApiWebhooks = NonNullable<
  (OpenApiOption extends infer D ? (D extends unknown ? ('webhooks' extends keyof D ? D : never) : never) : never)['webhooks']
>;

/**
 * The OpenAPI 3.1 `webhooks` section: one `post` per event kind, keyed by its short type, whose body is that
 * kind's envelope. @fastify/swagger 9 copies `openapi.webhooks` into the document as it is (no const→enum
 * conversion), so the published schemas are exactly these.
 */
export function eventWebhooks(vendor: string): OpenApiWebhooks {
  return Object.fromEntries(
    SHORT_EVENT_TYPES.map((short) => {
      const type = fullEventType(vendor, short);
      const schema = eventEnvelopeSchema(vendor, short);
      return [
        short,
        {
          post: {
            operationId: `event.${short}`,
            tags: ['Events'],
            summary: type,
            description:
              `${EVENT_PAYLOADS[short].when}\n\nPOSTed to every enabled webhook whose lab, organization and \`event_types\` match. ` +
              'Signed webhooks (the default) carry the signing headers below; unsigned ones carry none of them.',
            parameters: SIGNING_HEADERS,
            requestBody: {
              required: true,
              description: `The CloudEvents 1.0 envelope; \`data\` holds exactly ${dataKeysOf(short)
                .map((k) => `\`${k}\``)
                .join(
                  ' and ',
                )}. Sent as application/json (as the contract shows it: no \`subject\`), or as application/cloudevents+json with \`subject\` when the webhook's settings say format cloudevents (PUT /webhooks/{id}/settings).`,
              content: { 'application/json': { schema } },
            },
            responses: {
              '2XX': { description: 'Received: any 2xx within WEBHOOK_TIMEOUT_MS (3 s). The response body is ignored.' },
              '410': { description: 'Gone: the webhook is disabled.' },
              default: {
                description:
                  'Anything else (including redirects, which are not followed, and timeouts) is retried after 10 s, 100 s and 1000 s; 429 and 503 honour Retry-After.',
              },
            },
          },
        },
      ];
    }),
  );
}
