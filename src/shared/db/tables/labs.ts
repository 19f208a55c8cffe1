// Labs and who belongs to them: src/labs/ owns these tables (src/lab-migration/ writes the migration columns
// through src/labs/repository.ts).
// Column choices (text ids, dates and decimals; 0/1 booleans): src/shared/db/schema.ts.

export interface LabsTable {
  id: string;
  organization_id: string;
  name: string;
  uses_instances: number;
  created_at: string;
}
/** A lab's migration to instances (src/lab-migration/service.ts): all null until one starts. */
export interface LabMigrationColumns {
  migration_started_at: string | null;
  migration_started_by: string | null;
  migration_updated_at: string | null;
  migration_finished_at: string | null;
  migration_items_total: number | null;
  migration_items_done: number | null;
  migration_cursor_created_at: string | null;
  migration_cursor_id: string | null;
}
export interface LabMembershipsTable {
  lab_id: string;
  user_id: string;
  created_at: string;
}
