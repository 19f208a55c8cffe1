import type { Executor } from '../shared/db/database.js';
import { pagedList } from '../shared/db/paged-list.js';
import type { Page } from '../shared/pagination.js';

// The delivery and event logs as the webhooks domain reads them (docs/decisions/0013-webhook-tables.md): a
// webhook's deliveries with their attempts, one delivery to send again, the events a replay sends.

/** A page of the webhook's deliveries, newest first, with the attempts of that page in the order they ran. */
export async function listDeliveryLog(ex: Executor, webhookId: string, page: Page) {
  const base = ex.selectFrom('webhook_deliveries').where('webhook_deliveries.webhook_id', '=', webhookId);
  const { total, rows } = await pagedList(
    base,
    base
      .innerJoin('events', 'events.id', 'webhook_deliveries.event_id')
      .select([
        'webhook_deliveries.id',
        'webhook_deliveries.event_id',
        'events.type as event_type',
        'webhook_deliveries.status',
        'webhook_deliveries.attempts',
        'webhook_deliveries.next_attempt_at',
        'webhook_deliveries.created_at',
        'webhook_deliveries.completed_at',
      ])
      .orderBy('webhook_deliveries.created_at', 'desc')
      .orderBy('webhook_deliveries.id', 'desc'),
    page,
  );
  const attempts =
    rows.length === 0
      ? []
      : await ex
          .selectFrom('webhook_attempts')
          .selectAll()
          .where(
            'delivery_id',
            'in',
            rows.map((r) => r.id),
          )
          .orderBy('attempted_at')
          .orderBy('id')
          .execute();
  return { total, rows, attempts };
}

export const findDelivery = (ex: Executor, webhookId: string, deliveryId: string) =>
  ex
    .selectFrom('webhook_deliveries')
    .select(['id', 'event_id'])
    .where('id', '=', deliveryId)
    .where('webhook_id', '=', webhookId)
    .executeTakeFirst();

export interface ReplayFilter {
  organizationId: string;
  /** A lab webhook's lab; null: the whole organization. */
  labId: string | null;
  /** Full event types; empty: every type. */
  types: string[];
  excludeType: string;
  from: string;
  to: string;
  limit: number;
}

/** The ids of the events a replay sends, oldest first, at most `limit`. */
export async function eventsToReplay(ex: Executor, f: ReplayFilter): Promise<{ id: string }[]> {
  let q = ex
    .selectFrom('events')
    .select('id')
    .where('organization_id', '=', f.organizationId)
    .where('created_at', '>=', f.from)
    .where('created_at', '<=', f.to)
    .where('type', '!=', f.excludeType);
  if (f.labId) q = q.where('lab_id', '=', f.labId);
  if (f.types.length > 0) q = q.where('type', 'in', f.types);
  return q.orderBy('created_at').orderBy('id').limit(f.limit).execute();
}
