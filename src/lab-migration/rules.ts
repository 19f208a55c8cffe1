import { type MigrationStatus, migrationStatus } from '../labs/migrating.js';
import type { LabMigrationColumns } from '../shared/db/schema.js';
import { dec } from '../shared/decimal.js';

// The pure rules of a lab's migration from legacy fields to instances (docs/product.md §5, contract "Migration rules for
// instances"). The service (migration.ts) reads and writes; everything it decides is decided here.

/** Items per transaction: each batch converts, announces and advances the cursor atomically. */
export const DEFAULT_BATCH_SIZE = 500;
export const MAX_BATCH_SIZE = 5000;

/** The legacy fields of an item row: what becomes its one instance. */
export interface LegacyFields {
  quantity: string;
  lot_number: string | null;
  expiration_date: string | null;
  location_name: string | null;
  sublocation_name: string | null;
}

export interface PlannedInstance {
  quantity: string;
  lot_number: string | null;
  expiration_date: string | null;
  /** Root first: [location], [location, sublocation], or null for no location. */
  path: string[] | null;
}

export interface ItemPlan {
  /** The instance the item's legacy fields become, or null when they hold nothing (a zero quantity and no more). */
  instance: PlannedInstance | null;
  /** Whether the item's public representation changes (then it gets a new version and one inventory-item.updated). */
  changed: boolean;
}

/** Location names follow the location tree's rule (trimmed, non-empty); a blank legacy name is no location. */
const locationName = (raw: string | null): string | null => {
  const name = raw?.trim() ?? '';
  return name === '' ? null : name;
};

/**
 * The location path of legacy location/sublocation: a two-level path when both are given, one level when only
 * one is (a sublocation without a location becomes a root location of that name), null when neither is.
 */
export function legacyPath(location: string | null, sublocation: string | null): string[] | null {
  const path = [locationName(location), locationName(sublocation)].filter((n): n is string => n !== null);
  return path.length === 0 ? null : path;
}

/** What the stored row of a converted item holds: the migrated shape (legacy fields empty, quantity from instances). */
export const CONVERTED: LegacyFields = {
  quantity: '0',
  lot_number: null,
  expiration_date: null,
  location_name: null,
  sublocation_name: null,
};

/**
 * One item's migration. Its quantity, lot, expiry and location become one instance, unless all of them are empty
 * (a zero quantity and nothing else): such an item gets no instance, because an instance of nothing would add a
 * line that means nothing. The item changes (new version, one event) when it gets an instance or when any stored
 * legacy value differs from the converted shape (e.g. a blank location name, or quantity "0.00", which a migrated
 * lab shows as the empty sum "0"); an item that is already "0" with nothing else is left alone and not announced.
 */
export function planItem(row: LegacyFields): ItemPlan {
  const path = legacyPath(row.location_name, row.sublocation_name);
  const holdsSomething = !dec(row.quantity).isZero() || row.lot_number !== null || row.expiration_date !== null || path !== null;
  const instance = holdsSomething
    ? { quantity: row.quantity, lot_number: row.lot_number, expiration_date: row.expiration_date, path }
    : null;
  const changed = instance !== null || !isConverted(row);
  return { instance, changed };
}

/** Whether a row already has the converted shape (the SQL twin of this test is in migration.ts). */
export const isConverted = (row: LegacyFields): boolean =>
  row.quantity === CONVERTED.quantity &&
  row.lot_number === null &&
  row.expiration_date === null &&
  row.location_name === null &&
  row.sublocation_name === null;

/** A stable map key for a location path. */
export const pathKey = (path: readonly string[]): string => JSON.stringify(path);

type LabMigrationState = Pick<
  LabMigrationColumns,
  'migration_started_at' | 'migration_finished_at' | 'migration_updated_at' | 'migration_items_total' | 'migration_items_done'
> & { id: string; uses_instances: number };

export interface MigrationProgress {
  lab_id: string;
  status: MigrationStatus;
  /** Items the migration covers (the lab's items when it started). */
  items_total: number;
  /** Items processed so far (converted, or found to need nothing); equals items_total when done. */
  items_migrated: number;
  started_at: string | null;
  /** When the last batch committed: a running migration whose updated_at stands still has stopped (resume it). */
  updated_at: string | null;
  finished_at: string | null;
}

/** The progress body of a lab. A lab created with instances reports done, 0 of 0, with no dates. */
export function progressOf(lab: LabMigrationState): MigrationProgress {
  const total = lab.migration_items_total ?? 0;
  const status = migrationStatus(lab);
  return {
    lab_id: lab.id,
    status,
    items_total: total,
    items_migrated: status === 'done' ? total : Math.min(lab.migration_items_done ?? 0, total),
    started_at: lab.migration_started_at,
    updated_at: lab.migration_updated_at,
    finished_at: lab.migration_finished_at,
  };
}

/** A batch size as written on the command line: an integer from 1 to MAX_BATCH_SIZE, else null. */
export function parseBatchSize(raw: string): number | null {
  const n = /^\d{1,6}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  return n >= 1 && n <= MAX_BATCH_SIZE ? n : null;
}
