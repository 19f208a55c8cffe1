import { literalTargetProblem, parseCidrs } from '../delivery/ssrf.js';
import * as repo from '../delivery/webhook-repository.js';
import { wakeWorkers } from '../events/outbox.js';
import { expandEventTypes, fullEventType, SHORT_EVENT_TYPES } from '../events/types.js';
import { findVisibleLab } from '../labs/repository.js';
import { type Actor, isOrgAdmin } from '../shared/actor.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, type FieldError, notFound, validation } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Page } from '../shared/pagination.js';
import { nowIso } from '../shared/time.js';
import { generateSigningKey, urlProblem } from './rules.js';
import type { CreateWebhookBody, UpdateWebhookBody, Webhook } from './schemas.js';

export const toWebhook = (r: repo.WebhookRow): Webhook => ({
  id: r.id,
  name: r.name,
  url: r.url,
  event_types: JSON.parse(r.event_types) as string[],
  is_enabled: r.is_enabled === 1,
  is_verified: r.is_verified === 1,
  is_signed: r.is_signed === 1,
  signing_key: r.signing_key,
});

function requireAdmin(actor: Actor): void {
  // Webhook responses carry the signing key, so only organization admins manage webhooks.
  if (!isOrgAdmin(actor)) throw new AppError('forbidden', 'Managing webhooks needs the organization admin role');
}

function checkEventTypes(vendor: string, requested: string[] | undefined, errors: FieldError[]): string[] {
  if (requested === undefined) return [];
  const { types, unknown } = expandEventTypes(vendor, requested);
  if (unknown.length > 0) {
    const valid = SHORT_EVENT_TYPES.map((t) => fullEventType(vendor, t)).join(', ');
    errors.push({
      field: 'event_types',
      message: `unknown event type${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; valid: ${valid} (also resource.kind or resource.*)`,
    });
  }
  return types;
}

export async function listWebhooks(deps: ServiceDeps, actor: Actor, filter: { organizationId?: string }, page: Page) {
  requireAdmin(actor);
  if (filter.organizationId !== undefined && filter.organizationId !== actor.organizationId) return { total: 0, webhooks: [] };
  const { total, rows } = await repo.listOrgWebhooks(deps.db, actor.organizationId, page);
  return { total, webhooks: rows.map(toWebhook) };
}

export async function getWebhook(deps: ServiceDeps, actor: Actor, id: string): Promise<Webhook> {
  return toWebhook(await findManagedWebhook(deps, actor, id));
}

/** A well-formed URL that does not name a blocked address literally (the delivery re-checks after DNS). */
function targetProblem(deps: ServiceDeps, url: string): string | null {
  return urlProblem(url) ?? literalTargetProblem(url, parseCidrs(deps.config.webhookAllowedCidrs));
}

/** A webhook of the token's organization that the token may manage: 404 for any other, 403 for members. */
export async function findManagedWebhook(deps: ServiceDeps, actor: Actor, id: string): Promise<repo.WebhookRow> {
  const row = await repo.findOrgWebhook(deps.db, actor.organizationId, id);
  if (!row) throw notFound('webhook');
  requireAdmin(actor);
  return row;
}

export async function deleteWebhook(deps: ServiceDeps, actor: Actor, id: string): Promise<void> {
  const row = await findManagedWebhook(deps, actor, id);
  await deps.db.transaction().execute((trx) => repo.deleteWebhook(trx, row.id));
}

/** Old key keeps signing next to the new one for this long, so receivers can switch without losing events. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export async function rotateSigningKey(deps: ServiceDeps, actor: Actor, id: string): Promise<Webhook> {
  const row = await findManagedWebhook(deps, actor, id);
  const now = Date.now();
  // In a transaction so an Idempotency-Key claim commits with it (src/server/idempotency.ts).
  await deps.db.transaction().execute((trx) =>
    repo.updateWebhook(trx, row.id, {
      signing_key: generateSigningKey(),
      previous_signing_key: row.signing_key,
      previous_key_expires_at: new Date(now + ROTATION_OVERLAP_MS).toISOString(),
      updated_at: new Date(now).toISOString(),
    }),
  );
  return toWebhook((await repo.findOrgWebhook(deps.db, actor.organizationId, id))!);
}

export async function createWebhook(deps: ServiceDeps, actor: Actor, input: CreateWebhookBody): Promise<Webhook> {
  requireAdmin(actor);
  const errors: FieldError[] = [];
  if (input.lab_id === undefined && input.organization_id === undefined) {
    errors.push({
      field: 'lab_id',
      message:
        "give lab_id (that lab's events) or organization_id (all of the organization's events); both: the lab's, if it is the organization's",
    });
  }
  const problem = targetProblem(deps, input.url);
  if (problem) errors.push({ field: 'url', message: problem });
  const eventTypes = checkEventTypes(deps.config.eventVendor, input.event_types, errors);
  if (errors.length > 0) throw validation(errors);

  if (input.lab_id !== undefined) {
    const lab = await findVisibleLab(deps.db, actor, input.lab_id);
    if (!lab) throw notFound('lab');
    // Both given (docs/product.md §13): a lab webhook, when the lab is that organization's.
    if (input.organization_id !== undefined && input.organization_id !== lab.organization.id)
      throw validation([
        { field: 'organization_id', message: "the lab does not belong to that organization; give the lab's organization or only lab_id" },
      ]);
  } else if (input.organization_id !== actor.organizationId) throw notFound('organization');

  const now = nowIso();
  const row: repo.WebhookRow = {
    id: newId(),
    organization_id: actor.organizationId,
    lab_id: input.lab_id ?? null,
    name: input.name ?? null,
    url: input.url,
    event_types: JSON.stringify(eventTypes),
    is_enabled: input.is_enabled === false ? 0 : 1,
    is_verified: 0,
    is_signed: input.is_signed === false ? 0 : 1,
    signing_key: generateSigningKey(),
    previous_signing_key: null,
    previous_key_expires_at: null,
    content_type: 'application/json',
    disabled_reason: null,
    created_by: actor.userId,
    created_at: now,
    updated_at: now,
    last_success_at: null,
    failing_since: null,
    verify_pending: 1,
  };
  // In a transaction, like every POST's write, so an Idempotency-Key claim commits with it (src/server/idempotency.ts).
  await deps.db.transaction().execute((trx) => repo.insertWebhook(trx, row));
  await wakeWorkers(deps.db); // the worker runs the validation handshake that sets is_verified
  return toWebhook(row);
}

export async function updateWebhook(deps: ServiceDeps, actor: Actor, id: string, input: UpdateWebhookBody): Promise<Webhook> {
  const row = await findManagedWebhook(deps, actor, id);
  const errors: FieldError[] = [];
  if (input.url !== undefined) {
    const problem = targetProblem(deps, input.url);
    if (problem) errors.push({ field: 'url', message: problem });
  }
  const eventTypes = input.event_types === undefined ? undefined : checkEventTypes(deps.config.eventVendor, input.event_types, errors);
  if (errors.length > 0) throw validation(errors);

  const set: Partial<repo.WebhookRow> = { updated_at: nowIso() };
  if (input.is_enabled !== undefined) {
    set.is_enabled = input.is_enabled ? 1 : 0;
    // Re-enabling starts afresh: the sustained-failure clock restarts.
    if (input.is_enabled && row.is_enabled === 0) Object.assign(set, { disabled_reason: null, failing_since: null });
    if (!input.is_enabled) set.disabled_reason = 'disabled by a user';
  }
  if (input.content_type !== undefined) set.content_type = input.content_type;
  if (input.name !== undefined) set.name = input.name;
  if (input.url !== undefined && input.url !== row.url) {
    set.url = input.url;
    set.is_verified = 0; // a new address has not answered the validation handshake yet
    set.verify_pending = 1;
  }
  if (eventTypes !== undefined) set.event_types = JSON.stringify(eventTypes);
  if (input.is_signed !== undefined) set.is_signed = input.is_signed ? 1 : 0;
  await repo.updateWebhook(deps.db, row.id, set);
  if (set.verify_pending) await wakeWorkers(deps.db);
  return toWebhook((await repo.findOrgWebhook(deps.db, actor.organizationId, id))!);
}
