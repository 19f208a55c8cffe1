import { Webhook } from 'standardwebhooks';
import type { webhooks } from './generated/schema.js';

/**
 * A delivery that does not verify. Our own class rather than the standardwebhooks package's, so the client's
 * declarations do not pull in that package's, which need Node's types (a browser build has none).
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

/** The short type of each event kind the API publishes (`inventory-item.updated`, `type.created`, …). */
export type EventKind = keyof webhooks;

type Envelope<K extends EventKind> = webhooks[K]['post'] extends { requestBody: { content: { 'application/json': infer Body } } }
  ? Body
  : never;

/**
 * One delivered event of kind K, typed by the document's `webhooks` section. `type` is
 * `com.<vendor>.<kind>`; give Vendor when the service's EVENT_VENDOR is not the default `labstock`.
 */
export type WebhookEvent<K extends EventKind = EventKind, Vendor extends string = 'labstock'> = K extends EventKind
  ? Omit<Envelope<K>, 'type'> & { type: `com.${Vendor}.${K}` }
  : never;

/** The test event of `POST /webhooks/{id}/ping`, sent to that webhook only (docs/webhooks.md); not a published kind. */
export interface WebhookPingEvent<Vendor extends string = 'labstock'> {
  specversion: '1.0';
  id: string;
  source: string;
  type: `com.${Vendor}.webhook.ping`;
  /** The webhook's id, in CloudEvents structured mode only (docs/webhooks.md, "Format"). */
  subject?: string;
  datacontenttype: 'application/json';
  time: string;
  data: { webhook: { id: string; name: string | null; url: string } };
}

/** Anything a webhook endpoint receives from the service. */
export type LabstockEvent<Vendor extends string = 'labstock'> = WebhookEvent<EventKind, Vendor> | WebhookPingEvent<Vendor>;

/** Request headers as a Fetch Headers object or a plain object (Node's IncomingHttpHeaders, say). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(' ') : value;
  }
  return undefined;
}

/**
 * Checks a delivery's signature and returns its event, typed; throws WebhookVerificationError when the signature,
 * the timestamp (more than 5 minutes off) or the body does not hold.
 *
 * `body` must be the raw request body exactly as received (not re-serialized JSON); `secret` the webhook's
 * `signing_key` (`whsec_…`). The service signs per Standard Webhooks (src/delivery/signing.ts): `webhook-id`,
 * `webhook-timestamp` and `webhook-signature` (one `v1,` signature per key, space-separated during a key rotation,
 * so the old or the new key verifies). It also sends the signature as `Signature`, used when
 * `webhook-signature` is missing.
 */
export function verifyWebhook<Vendor extends string = 'labstock'>(
  body: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
): LabstockEvent<Vendor> {
  const signed = {
    'webhook-id': header(headers, 'webhook-id') ?? '',
    'webhook-timestamp': header(headers, 'webhook-timestamp') ?? '',
    'webhook-signature': header(headers, 'webhook-signature') ?? header(headers, 'signature') ?? '',
  };
  let event: unknown;
  try {
    // The service sends UTF-8 JSON: bytes that are not UTF-8 were not signed by it.
    const text = typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: true }).decode(body);
    event = new Webhook(secret).verify(text, signed);
  } catch (err) {
    throw new WebhookVerificationError(err instanceof Error ? err.message : String(err), { cause: err });
  }
  if (!isEnvelope(event)) throw new WebhookVerificationError('The body is not a Labstock event');
  return event as LabstockEvent<Vendor>;
}

function isEnvelope(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { specversion, type, data } = value as Record<string, unknown>;
  return specversion === '1.0' && typeof type === 'string' && typeof data === 'object' && data !== null;
}

/** The kind of an event (`inventory-item.updated`) from its type (`com.<vendor>.inventory-item.updated`). */
export function eventKind(event: { type: string }): EventKind | 'webhook.ping' {
  return event.type.split('.').slice(2).join('.') as EventKind | 'webhook.ping';
}
