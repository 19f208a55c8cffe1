import type { Kysely } from 'kysely';

// A container's vendor identifiers (docs/scanning.md "Identifiers"): the GTIN (GS1 AI 01) and serial number (AI 21)
// read from the manufacturer's barcode at receiving, which the contract's instance has no field for. One row per
// instance that has either; owned by src/inventory/ (src/inventory/identifiers-repository.ts). organization_id and
// the indexes serve finding a container by a later scan of the same barcode: GTIN and serial, or GTIN and the
// instance's lot. Deleting the instance (its item deleted) deletes the row.
export async function up(db: Kysely<any>): Promise<void> {
  const text = 'text';
  await db.schema.createTable('instance_identifiers')
    .addColumn('instance_id', text, (c) => c.primaryKey().references('inventory_item_instances.id').onDelete('cascade'))
    .addColumn('organization_id', text, (c) => c.notNull().references('organizations.id'))
    .addColumn('gtin', text)
    .addColumn('serial_number', text)
    .addColumn('updated_by', text, (c) => c.references('users.id'))
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('instance_identifiers_gtin_serial_idx').on('instance_identifiers')
    .columns(['organization_id', 'gtin', 'serial_number']).execute();
  await db.schema.createIndex('instance_identifiers_serial_idx').on('instance_identifiers')
    .columns(['organization_id', 'serial_number']).execute();
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
