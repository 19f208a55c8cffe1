// How a webhook's deliveries are written (docs/webhooks.md, "Format"): the contract's `application/json`, the stored
// event byte for byte, or CloudEvents 1.0 structured mode (`application/cloudevents+json`), the same envelope with
// `subject` naming the resource the event is about. The format is kept as the content type in `webhooks.content_type`.

export const DELIVERY_FORMATS = ['json', 'cloudevents'] as const;
export type DeliveryFormat = (typeof DELIVERY_FORMATS)[number];

const CONTENT_TYPES = { json: 'application/json', cloudevents: 'application/cloudevents+json' } as const satisfies Record<
  DeliveryFormat,
  string
>;
export type DeliveryContentType = (typeof CONTENT_TYPES)[DeliveryFormat];

export const contentTypeOf = (format: DeliveryFormat): DeliveryContentType => CONTENT_TYPES[format];

/** The format a stored content type stands for; anything unknown is the contract's JSON. */
export const formatOf = (contentType: string | null | undefined): DeliveryFormat =>
  contentType === CONTENT_TYPES.cloudevents ? 'cloudevents' : 'json';

/**
 * CloudEvents `subject`: the id of the resource in `data` (its first key: the alert kinds' `alert` comes after the
 * item), so a receiver can route or filter on it without reading `data`. None when the resource has no string id.
 */
function subjectOf(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const first = Object.values(data)[0] as { id?: unknown } | null | undefined;
  return typeof first?.id === 'string' && first.id !== '' ? first.id : undefined;
}

/**
 * The body and Content-Type of one delivery of the stored event `payload` (its JSON as written to `events`). JSON
 * sends the payload unchanged; structured mode adds `subject` after `type` when there is one. What is returned is
 * what is signed and sent (src/delivery/sender.ts).
 */
export function encodeDelivery(payload: string, format: DeliveryFormat): { contentType: DeliveryContentType; body: string } {
  const contentType = contentTypeOf(format);
  if (format === 'json') return { contentType, body: payload };
  const { specversion, id, source, type, ...rest } = JSON.parse(payload) as Record<string, unknown>;
  const subject = subjectOf(rest.data);
  if (subject === undefined) return { contentType, body: payload };
  return { contentType, body: JSON.stringify({ specversion, id, source, type, subject, ...rest }) };
}
