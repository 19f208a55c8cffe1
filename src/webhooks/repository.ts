import type { Executor } from '../shared/db/database.js';
import type { WebhooksTable } from '../shared/db/schema.js';
import type { Page } from '../shared/pagination.js';

export type WebhookRow = WebhooksTable;

export async function listOrgWebhooks(ex: Executor, organizationId: string, page: Page) {
  const base = ex.selectFrom('webhooks').where('organization_id', '=', organizationId);
  const [count, rows] = await Promise.all([
    base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow(),
    base.selectAll().orderBy('created_at').orderBy('id').limit(page.perPage).offset(page.offset).execute(),
  ]);
  return { total: Number(count.n), rows };
}

export const findOrgWebhook = (ex: Executor, organizationId: string, id: string) =>
  ex.selectFrom('webhooks').selectAll().where('id', '=', id).where('organization_id', '=', organizationId).executeTakeFirst();

export async function insertWebhook(ex: Executor, row: WebhookRow): Promise<void> {
  await ex.insertInto('webhooks').values(row).execute();
}

export async function updateWebhook(ex: Executor, id: string, set: Partial<WebhookRow>): Promise<void> {
  await ex.updateTable('webhooks').set(set).where('id', '=', id).execute();
}
