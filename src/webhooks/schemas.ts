import { type Static, Type } from 'typebox';
import { DateTime, NString, Uuid } from '../shared/schemas.js';

// The webhook exactly as the contract shows it: one declaration validates, serializes and documents (src/shared/schemas.ts).

export const Webhook = Type.Object(
  {
    id: Uuid,
    name: NString,
    url: Type.String(),
    event_types: Type.Array(Type.String(), { description: 'Full event type strings; [] delivers every event.' }),
    is_enabled: Type.Boolean(),
    is_verified: Type.Boolean(),
    is_signed: Type.Boolean(),
    signing_key: Type.String(),
  },
  { $id: 'Webhook', title: 'Webhook', additionalProperties: false },
);
export type Webhook = Static<typeof Webhook>;

/** One delivery of an event to a webhook, with every attempt (GET /webhooks/{id}/deliveries). */
export const WebhookDelivery = Type.Object(
  {
    id: Uuid,
    event_id: Uuid,
    event_type: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed'), Type.Literal('cancelled')]),
    attempts: Type.Integer(),
    next_attempt_at: NString,
    created_at: DateTime,
    completed_at: NString,
    log: Type.Array(
      Type.Object(
        {
          attempted_at: DateTime,
          status_code: Type.Union([Type.Integer(), Type.Null()]),
          duration_ms: Type.Integer(),
          outcome: Type.String({
            description: 'success, http_error, timeout, network_error, blocked, redirect, not_verified, or webhook_disabled',
          }),
          error: NString,
          response_body: Type.Union([Type.String({ description: 'first 1 KiB of the response' }), Type.Null()]),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { $id: 'WebhookDelivery', title: 'WebhookDelivery', additionalProperties: false },
);

/** A delivery queued by a ping or a redelivery. */
export const QueuedDelivery = Type.Object(
  { id: Uuid, event_id: Uuid, status: Type.String() },
  { $id: 'QueuedDelivery', additionalProperties: false },
);

/** How many deliveries a replay scheduled. */
export const ReplayResult = Type.Object({ scheduled: Type.Integer() }, { $id: 'ReplayResult', additionalProperties: false });

/**
 * A webhook's delivery settings (GET/PUT /webhooks/{id}/settings): Labstock's own, beside the contract's Webhook
 * resource, which carries none of them (docs/webhooks.md, "Format").
 */
export const WebhookSettings = Type.Object(
  {
    format: Type.Union([Type.Literal('json'), Type.Literal('cloudevents')], {
      description:
        'json (the default): the event as the contract shows it, Content-Type application/json. cloudevents: CloudEvents 1.0 structured mode, Content-Type application/cloudevents+json, the same envelope with subject (the id of the resource in data). Signatures cover the body sent.',
    }),
  },
  { $id: 'WebhookSettings', title: 'WebhookSettings', additionalProperties: false },
);
export type WebhookSettings = Static<typeof WebhookSettings>;

// The request bodies: the routes validate with them and the services take their Static types (routes.ts, service.ts).

const Url = Type.String({ minLength: 1, maxLength: 2048 });
const EventTypes = Type.Array(Type.String({ maxLength: 200 }), {
  maxItems: 100,
  description: 'Full types (com.<vendor>.order-request.ordered), short ones (order-request.ordered), resource.* or [] for all.',
});

// Kept so that clients which set it keep working; the format belongs to PUT /webhooks/{id}/settings (settings.ts).
const ContentType = Type.Union([Type.Literal('application/json'), Type.Literal('application/cloudevents+json')], {
  deprecated: true,
  description:
    'Deprecated: set the delivery format with PUT /webhooks/{id}/settings ({"format": "json" | "cloudevents"}). Content-Type of deliveries (default application/json).',
});

export const CreateWebhookBody = Type.Object(
  {
    lab_id: Type.Optional(Uuid),
    organization_id: Type.Optional(Uuid),
    name: Type.Optional(Type.String({ maxLength: 200 })),
    url: Url,
    event_types: Type.Optional(EventTypes),
    is_enabled: Type.Optional(Type.Boolean()),
    is_verified: Type.Optional(Type.Boolean({ description: 'Ignored: set by the validation handshake.' })),
    is_signed: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object(
  {
    is_enabled: Type.Optional(Type.Boolean()),
    name: Type.Optional(NString),
    url: Type.Optional(Url),
    event_types: Type.Optional(EventTypes),
    is_signed: Type.Optional(Type.Boolean()),
    content_type: Type.Optional(ContentType),
  },
  { additionalProperties: false },
);
export type UpdateWebhookBody = Static<typeof UpdateWebhookBody>;

export const ReplayBody = Type.Object({ from: DateTime, to: DateTime }, { additionalProperties: false });
export type ReplayBody = Static<typeof ReplayBody>;
