import type { Kysely } from 'kysely';

// Hazards (issue 26, docs/hazards.md): the GHS hazard statements recorded on a type or an item, owned by src/hazards/.
//
// - hazard_sets: one row per type or item that has its own statements, with who set them and when. Exactly one of
//   item_id, type_id names the owner; each references its table ON DELETE CASCADE. An item WITHOUT a row inherits
//   its type's statements; an item WITH a row and no codes has "no hazards" of its own, overriding its type's.
// - hazard_set_codes: the statements of a set, one row each (normalized codes, src/hazards/rules.ts). Indexed by code,
//   so the inventory's filter by hazard class is a lookup of the class's codes.
// - attachments.sds_revised_on: the revision date (YYYY-MM-DD) of a document marked as the safety data sheet of its
//   item or type; null for any other document (src/attachments/, docs/attachments.md).
export async function up(db: Kysely<any>): Promise<void> {
  const text = 'text';
  await db.schema
    .createTable('hazard_sets')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('lab_id', text, (c) => c.notNull().references('labs.id'))
    .addColumn('item_id', text, (c) => c.references('inventory_items.id').onDelete('cascade'))
    .addColumn('type_id', text, (c) => c.references('types.id').onDelete('cascade'))
    .addColumn('updated_by', text, (c) => c.notNull().references('users.id'))
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('hazard_sets_item_idx').on('hazard_sets').column('item_id').unique().execute();
  await db.schema.createIndex('hazard_sets_type_idx').on('hazard_sets').column('type_id').unique().execute();
  await db.schema
    .createTable('hazard_set_codes')
    .addColumn('set_id', text, (c) => c.notNull().references('hazard_sets.id').onDelete('cascade'))
    .addColumn('code', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('hazard_set_codes_pk', ['set_id', 'code'])
    .execute();
  await db.schema.createIndex('hazard_set_codes_code_idx').on('hazard_set_codes').columns(['code', 'set_id']).execute();
  await db.schema.alterTable('attachments').addColumn('sds_revised_on', text).execute();
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
