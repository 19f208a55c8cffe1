import { sql } from 'kysely';
import { type Db, type Executor, isPostgres } from '../shared/db/database.js';
import { pagedList } from '../shared/db/paged-list.js';
import type { WebhooksTable } from '../shared/db/schema.js';
import type { Page } from '../shared/pagination.js';

// The `webhooks` table (docs/decisions/0013-webhook-tables.md): its rows as the webhooks domain manages them, the
// subscribers the outbox fans events out to, and the state the worker keeps on them (health, handshakes).

export type WebhookRow = WebhooksTable;

export async function listOrgWebhooks(ex: Executor, organizationId: string, page: Page) {
  const base = ex.selectFrom('webhooks').where('organization_id', '=', organizationId);
  return pagedList(base, base.selectAll().orderBy('created_at').orderBy('id'), page);
}

export const findOrgWebhook = (ex: Executor, organizationId: string, id: string) =>
  ex.selectFrom('webhooks').selectAll().where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();

export async function insertWebhook(ex: Executor, row: WebhookRow): Promise<void> {
  await ex.insertInto('webhooks').values(row).execute();
}

export async function updateWebhook(ex: Executor, id: string, set: Partial<WebhookRow>): Promise<void> {
  await ex.updateTable('webhooks').set(set).where('id', '=', id).execute();
}

/** The webhook with its delivery log; call it in a transaction, so a failure leaves all three. */
export async function deleteWebhook(ex: Executor, id: string): Promise<void> {
  await ex.deleteFrom('webhook_attempts').where('webhook_id', '=', id).execute();
  await ex.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
  await ex.deleteFrom('webhooks').where('id', '=', id).execute();
}

/**
 * The organization's webhooks that may receive events now (enabled; verified too when `verifiedOnly`). The outbox
 * reads them in the event's own transaction, so matching uses the webhooks as they are when the change commits.
 */
export async function subscribersOf(ex: Executor, organizationId: string, verifiedOnly: boolean) {
  let q = ex
    .selectFrom('webhooks')
    .select(['id', 'lab_id', 'event_types'])
    .where('organization_id', '=', organizationId)
    .where('is_enabled', '=', 1);
  if (verifiedOnly) q = q.where('is_verified', '=', 1);
  return q.execute();
}

/**
 * The organization's webhooks that may receive events, as a JSON array of [id, lab_id, event_types] in one column of
 * another folder's statement (`organizationId`: a reference to the organization's id there). A write that emits one
 * event reads its subscribers with its own first read instead of a statement of their own (src/inventory/quantities.ts).
 * SQLite gives it as text, PostgreSQL as parsed JSON: subscribersFromJson takes either.
 */
export function subscribersJson(ex: Executor, organizationId: string, verifiedOnly: boolean) {
  const verified = verifiedOnly ? sql` and is_verified = 1` : sql``;
  const org = sql.ref(organizationId);
  return isPostgres(ex)
    ? sql<unknown>`(select coalesce(json_agg(json_build_array(id, lab_id, event_types)), '[]') from webhooks
        where organization_id = ${org} and is_enabled = 1${verified})`
    : sql<unknown>`(select json_group_array(json_array(id, lab_id, event_types)) from webhooks
        where organization_id = ${org} and is_enabled = 1${verified})`;
}

export const subscribersFromJson = (value: unknown): { id: string; lab_id: string | null; event_types: string }[] =>
  ((typeof value === 'string' ? JSON.parse(value) : value) as [string, string | null, string][]).map(([id, lab_id, event_types]) => ({
    id,
    lab_id,
    event_types,
  }));

/**
 * A success at `at`: last_success_at moves forward to it, and failing_since is cleared unless a failure recorded
 * after `at` (by another worker, or written before this deferred success) set it.
 */
export async function recordWebhookSuccess(ex: Executor, webhookId: string, at: string): Promise<void> {
  await ex
    .updateTable('webhooks')
    .set({
      last_success_at: sql<string>`case when last_success_at is null or last_success_at < ${at} then ${at} else last_success_at end`,
      failing_since: sql<string | null>`case when failing_since <= ${at} then null else failing_since end`,
    })
    .where('id', '=', webhookId)
    .execute();
}

/** A failure at `at`: failing_since is set unless already set; returns its value (null if the webhook is gone). */
export async function recordWebhookFailure(ex: Executor, webhookId: string, at: string): Promise<string | null> {
  const row = await ex
    .updateTable('webhooks')
    .set({ failing_since: sql<string>`coalesce(failing_since, ${at})` })
    .where('id', '=', webhookId)
    .returning('failing_since')
    .executeTakeFirst();
  return row?.failing_since ?? null;
}

export async function disableWebhook(ex: Executor, webhookId: string, reason: string, now: string): Promise<void> {
  await ex.updateTable('webhooks').set({ is_enabled: 0, disabled_reason: reason, updated_at: now }).where('id', '=', webhookId).execute();
}

/** Webhooks whose current URL waits for its validation handshake. */
export const pendingHandshakes = (db: Db, limit: number) =>
  db.selectFrom('webhooks').select(['id', 'url']).where('verify_pending', '=', 1).limit(limit).execute();

export async function anyHandshakePending(db: Db): Promise<boolean> {
  return (await db.selectFrom('webhooks').select('id').where('verify_pending', '=', 1).limit(1).executeTakeFirst()) !== undefined;
}

/** Marks the handshake's result on the URL that was checked only: a URL changed meanwhile stays pending. */
export async function recordHandshake(db: Db, webhookId: string, url: string, ok: boolean): Promise<void> {
  await db
    .updateTable('webhooks')
    .set({ is_verified: ok ? 1 : 0, verify_pending: 0 })
    .where('id', '=', webhookId)
    .where('url', '=', url)
    .execute();
}
