import { type Kysely, PostgresAdapter } from 'kysely';

// Attachments (docs/attachments.md): documents kept with an item, an instance or a type, in the database itself so
// that backups and every server of a scale-out carry them.
//
// - attachments: one row per document. Exactly one of item_id, instance_id, type_id names its owner; each references
//   its table ON DELETE CASCADE, so deleting an item (its instances) or a type takes its documents with it, whatever
//   code path deletes it. content_id names the chunks of the current content; null while the first upload is still
//   being received (such a row is never listed, and one left behind by a dead process is swept).
// - attachment_chunks: the content, 256 KiB a row (src/attachments/rules.ts), so that neither database nor the
//   server ever holds a whole file; a replace writes new chunks under a new content_id and swaps it in one
//   transaction. created_at lets a sweep remove the chunks of an upload that never finished.
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const text = 'text';
  await db.schema
    .createTable('attachments')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('lab_id', text, (c) => c.notNull().references('labs.id'))
    .addColumn('item_id', text, (c) => c.references('inventory_items.id').onDelete('cascade'))
    .addColumn('instance_id', text, (c) => c.references('inventory_item_instances.id').onDelete('cascade'))
    .addColumn('type_id', text, (c) => c.references('types.id').onDelete('cascade'))
    .addColumn('file_name', text, (c) => c.notNull())
    .addColumn('media_type', text, (c) => c.notNull())
    .addColumn('size_bytes', 'integer', (c) => c.notNull())
    .addColumn('sha256', text, (c) => c.notNull())
    .addColumn('content_id', text)
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_by', text, (c) => c.notNull().references('users.id'))
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('updated_by', text, (c) => c.notNull().references('users.id'))
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('attachments_item_idx').on('attachments').columns(['item_id', 'created_at']).execute();
  await db.schema.createIndex('attachments_instance_idx').on('attachments').columns(['instance_id', 'created_at']).execute();
  await db.schema.createIndex('attachments_type_idx').on('attachments').columns(['type_id', 'created_at']).execute();
  await db.schema
    .createTable('attachment_chunks')
    .addColumn('attachment_id', text, (c) => c.notNull().references('attachments.id').onDelete('cascade'))
    .addColumn('content_id', text, (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    // Before the data: SQLite reads a row's columns in order, and a blob spills to overflow pages.
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('data', postgres ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('attachment_chunks_pk', ['content_id', 'seq'])
    .execute();
  await db.schema.createIndex('attachment_chunks_created_idx').on('attachment_chunks').column('created_at').execute();
  await db.schema.createIndex('attachment_chunks_attachment_idx').on('attachment_chunks').columns(['attachment_id', 'content_id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
