// Events and their delivery: webhooks (src/webhooks/), the outbox of events (src/events/), deliveries and their
// attempts (src/delivery/); and the idempotency keys of POST requests (src/server/).
// Column choices (text ids, dates and decimals; 0/1 booleans): src/shared/db/schema.ts.

export interface WebhooksTable {
  id: string;
  organization_id: string;
  lab_id: string | null;
  name: string | null;
  url: string;
  event_types: string;
  is_enabled: number;
  is_verified: number;
  is_signed: number;
  signing_key: string;
  previous_signing_key: string | null;
  previous_key_expires_at: string | null;
  content_type: string;
  disabled_reason: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  last_success_at: string | null;
  failing_since: string | null;
  verify_pending: number;
}
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'cancelled';
export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event_id: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string;
  lease_until: string | null;
  leased_by: string | null;
  created_at: string;
  completed_at: string | null;
}
export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  webhook_id: string;
  attempted_at: string;
  duration_ms: number;
  status_code: number | null;
  outcome: string;
  error: string | null;
  response_body: string | null;
}
export interface EventsTable {
  id: string;
  type: string;
  organization_id: string;
  lab_id: string | null;
  payload: string;
  created_at: string;
}
export interface IdempotencyKeysTable {
  token_id: string;
  key: string;
  method: string;
  path: string;
  body_hash: string;
  status_code: number;
  response_body: string;
  created_at: string;
}
