import { contentTypeOf, formatOf } from '../delivery/formats.js';
import * as repo from '../delivery/webhook-repository.js';
import type { Actor } from '../shared/actor.js';
import type { ServiceDeps } from '../shared/deps.js';
import { nowIso } from '../shared/time.js';
import type { WebhookSettings } from './schemas.js';
import { findManagedWebhook } from './service.js';

// A webhook's delivery settings, on their own endpoint because the contract's Webhook resource allows no other
// fields (docs/product.md §1). Managed like the webhook itself: organization admins only, another organization's
// webhook is 404 (findManagedWebhook).

const settingsOf = (row: repo.WebhookRow): WebhookSettings => ({ format: formatOf(row.content_type) });

export async function getWebhookSettings(deps: ServiceDeps, actor: Actor, id: string): Promise<WebhookSettings> {
  return settingsOf(await findManagedWebhook(deps, actor, id));
}

export async function putWebhookSettings(deps: ServiceDeps, actor: Actor, id: string, input: WebhookSettings): Promise<WebhookSettings> {
  const row = await findManagedWebhook(deps, actor, id);
  const contentType = contentTypeOf(input.format);
  // Deliveries already queued take the new format at their next attempt: the worker reads it when it sends.
  if (contentType !== row.content_type)
    await deps.db.transaction().execute((trx) => repo.updateWebhook(trx, row.id, { content_type: contentType, updated_at: nowIso() }));
  return { format: input.format };
}
