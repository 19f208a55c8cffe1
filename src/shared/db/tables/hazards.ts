import type { ColumnType } from 'kysely';

// Hazards (migration 0036, src/hazards/, docs/hazards.md): the GHS hazard statements of a type or an item.

export interface HazardSetsTable {
  id: string;
  /** The owner's lab. */
  lab_id: string;
  /** Exactly one of the two names the owner. */
  item_id: string | null;
  type_id: string | null;
  updated_by: string;
  updated_at: string;
}

export interface HazardSetCodesTable {
  set_id: string;
  /** A normalized statement code (H225, H300+H310, H360Fd). */
  code: string;
}

export interface AttachmentSdsColumns {
  /** YYYY-MM-DD: the revision date of a safety data sheet; null for any other document. */
  sds_revised_on: ColumnType<string | null, string | null | undefined, string | null>;
}
