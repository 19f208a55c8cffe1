import { type Kysely, sql } from 'kysely';

// Placement safety (docs/safety.md, issue 26): the tables are owned by src/hazards/.
//
// - lab_safety_settings: per lab, whether a segregation conflict and a control-area limit only warn or block the
//   write. Without a row both warn (docs/product.md §14: "warn by default, block by setting").
// - control_areas: a location marked a control area, keyed by the location's id (no foreign key: the location's
//   delete removes it through src/hazards/control-area-repository.ts in its transaction). `sprinklered` and
//   `cabinets` are the IFC footnotes' increases; `limits` is a JSON list of the limits edited by hand (category,
//   state, amount), the others come from the defaults (src/hazards/maq-data.ts).
// - storage_attributes: what the GHS classes do not say but segregation needs: an acid or a base, an aqueous
//   solution. Per type or per item (the item's own row overrides its type's), keyed by (subject_kind, subject_id).
// - instances_active_location_idx: the meter and the checks read the active containers of a location subtree
//   (src/inventory/placement-repository.ts); the partial index holds active instances only, with the item and the
//   quantity, so the read does not visit archived ones (issue 26 bench: < 5 ms p99 at 1,000,000 instances).
export async function up(db: Kysely<any>): Promise<void> {
  const text = 'text';
  await db.schema.createTable('lab_safety_settings')
    .addColumn('lab_id', text, (c) => c.primaryKey().references('labs.id'))
    .addColumn('segregation', text, (c) => c.notNull())
    .addColumn('limits', text, (c) => c.notNull())
    .addColumn('updated_by', text, (c) => c.notNull().references('users.id'))
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createTable('control_areas')
    .addColumn('location_id', text, (c) => c.primaryKey())
    .addColumn('lab_id', text, (c) => c.notNull().references('labs.id'))
    .addColumn('sprinklered', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cabinets', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('limits', text, (c) => c.notNull())
    .addColumn('updated_by', text, (c) => c.notNull().references('users.id'))
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('control_areas_lab_idx').on('control_areas').columns(['lab_id']).execute();
  await db.schema.createTable('storage_attributes')
    .addColumn('subject_kind', text, (c) => c.notNull())
    .addColumn('subject_id', text, (c) => c.notNull())
    .addColumn('corrosive', text)
    .addColumn('aqueous', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_by', text, (c) => c.notNull().references('users.id'))
    .addColumn('updated_at', text, (c) => c.notNull())
    .addPrimaryKeyConstraint('storage_attributes_pk', ['subject_kind', 'subject_id'])
    .execute();
  await sql`create index instances_active_location_idx on inventory_item_instances (location_id, item_id, quantity) where archived_at is null`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
