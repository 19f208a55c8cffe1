import type { Executor } from '../shared/db/database.js';
import type { LabMigrationColumns } from '../shared/db/schema.js';
import { AppError } from '../shared/errors.js';
import { findMigrationFlags } from './repository.js';

// Whether a lab is migrating to instances, as every inventory write must know (the migration itself is in
// src/lab-migration/): here, in the labs folder, so that inventory and lab-migration both read it from below.

export type MigrationStatus = 'not_started' | 'running' | 'done';

type MigrationFlags = Pick<LabMigrationColumns, 'migration_started_at'> & { uses_instances: number };

/** A lab uses instances once its migration finished (or from its creation); until then a started migration runs. */
export function migrationStatus(lab: MigrationFlags): MigrationStatus {
  if (lab.uses_instances === 1) return 'done';
  return lab.migration_started_at === null ? 'not_started' : 'running';
}

/** While a lab migrates, its inventory is read-only (writes are 409 lab_migrating). */
export const isMigrating = (lab: MigrationFlags): boolean => migrationStatus(lab) === 'running';

export const labMigrating = () =>
  new AppError(
    'lab_migrating',
    'This lab is being migrated to instances: its inventory is read-only until the migration finishes (see GET /labs/{id}/migration)',
  );

/**
 * Refuses a write to the inventory of a lab whose migration is running (409 lab_migrating). Call it inside the
 * write's transaction after the item row is locked or written, so a write racing a batch either commits before the
 * batch reads the item or sees the migration and rolls back. With `share` (creates, which lock no item), the lab
 * row is read FOR SHARE on PostgreSQL: a migration cannot start until the create commits, nor finish under it.
 */
export async function assertLabNotMigrating(ex: Executor, labId: string, opts: { share?: boolean } = {}): Promise<void> {
  const lab = await findMigrationFlags(ex, labId, opts);
  if (lab && isMigrating(lab)) throw labMigrating();
}
