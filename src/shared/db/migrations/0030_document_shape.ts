import type { Kysely } from 'kysely';

// Issue 24: a stored item document (migration 0017) is served only when it has the shape the running version renders
// (src/inventory/stored/shape.ts). Each document records the shape it was written with; one of another shape (or of
// none: every document written before this migration) counts as missing, is rendered on read and rewritten in the
// background (docs/decisions/0015-stored-item-documents.md). The settings row records, beside APP_URL, the shape the
// last complete rebuild brought every document to.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('inventory_items').addColumn('rendered_shape', 'text').execute();
  await db.schema.alterTable('inventory_document_settings').addColumn('shape', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
