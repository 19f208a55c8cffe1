import type { Executor } from '../shared/db/database.js';

// attachments.sds_revised_on (migration 0036): which documents of an item or a type are its safety data sheet, and
// the revision date printed on it (docs/hazards.md, "Safety data sheets").

export async function setSdsRevisedOn(ex: Executor, id: string, revisedOn: string | null): Promise<void> {
  await ex.updateTable('attachments').set({ sds_revised_on: revisedOn }).where('id', '=', id).execute();
}

/** The complete documents marked as the safety data sheet of this item or of this type, newest revision first. */
export function safetyDataSheetsOf(ex: Executor, itemId: string, typeId: string | null) {
  return ex
    .selectFrom('attachments')
    .select(['id', 'item_id', 'type_id', 'file_name', 'sds_revised_on'])
    .where('sds_revised_on', 'is not', null)
    .where('content_id', 'is not', null)
    .where((eb) => (typeId ? eb.or([eb('item_id', '=', itemId), eb('type_id', '=', typeId)]) : eb('item_id', '=', itemId)))
    .orderBy('sds_revised_on', 'desc')
    .orderBy('id')
    .execute();
}
