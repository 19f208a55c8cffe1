import type { Executor } from '../shared/db/database.js';

// The queries of the stale safety data sheet pass (src/alerts/sds.ts): the sheets (attachments marked with a revision
// date, migration 0036), the items they concern, and the open `sds_review` alerts. Each in batches or chunks.

const CHUNK = 500;

/** Marked sheets of items and types after `afterId`, in id order. */
export function sheetsAfter(ex: Executor, afterId: string, limit: number) {
  return ex
    .selectFrom('attachments')
    .select(['id', 'item_id', 'type_id', 'file_name', 'sds_revised_on'])
    .where('sds_revised_on', 'is not', null)
    .where('instance_id', 'is', null)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export interface StaleItemRow {
  id: string;
  name: string;
  type_id: string | null;
  lab_id: string;
  lab_name: string;
  organization_id: string;
}

const itemColumns = ['it.id', 'it.name', 'it.type_id', 'it.lab_id', 'l.name as lab_name', 'l.organization_id'] as const;

/** Items by id, or every item of these types, with their lab. */
export async function itemsOf(ex: Executor, by: { itemIds?: readonly string[]; typeIds?: readonly string[] }): Promise<StaleItemRow[]> {
  const out: StaleItemRow[] = [];
  for (const [column, ids] of [
    ['it.id', by.itemIds ?? []],
    ['it.type_id', by.typeIds ?? []],
  ] as const) {
    for (let i = 0; i < ids.length; i += CHUNK) {
      const rows = await ex
        .selectFrom('inventory_items as it')
        .innerJoin('labs as l', 'l.id', 'it.lab_id')
        .select([...itemColumns])
        .where(column, 'in', ids.slice(i, i + CHUNK))
        .execute();
      out.push(...rows);
    }
  }
  return out;
}

/** The open sds_review alerts (one per item at most, alerts_open_idx). */
export function openSdsAlerts(ex: Executor) {
  return ex.selectFrom('alerts').select(['id', 'item_id']).where('cause', '=', 'sds_review').where('cleared_at', 'is', null).execute();
}
