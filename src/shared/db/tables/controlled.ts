// Controlled substances (migration 0039, docs/controlled-substances.md), owned by src/controlled/.

export type LedgerKind = 'opening' | 'use' | 'receipt' | 'move' | 'disposal' | 'count' | 'correction' | 'closing';

export interface ControlledItemsTable {
  item_id: string;
  lab_id: string;
  schedule: string;
  marked_by: string;
  marked_at: string;
}

/** Append-only: a trigger refuses UPDATE and DELETE on both engines. */
export interface ControlledLedgerTable {
  id: string;
  lab_id: string;
  item_id: string;
  /** 1, 2, … per item. */
  seq: number;
  kind: LedgerKind;
  /** Decimal string, never negative: how much the entry is about (for a move, the amount moved). */
  amount: string;
  /** Decimal string, signed: its effect on the balance (0 for a move). */
  change: string;
  /** Decimal string: the running balance after it. */
  balance: string;
  instance_id: string | null;
  from_location_id: string | null;
  to_location_id: string | null;
  corrects_id: string | null;
  /** Which path wrote it: app (a person's change), receiving, stocktake, correction, marking. */
  source: string;
  note: string | null;
  created_by: string;
  created_at: string;
}

export interface ControlledWitnessesTable {
  entry_id: string;
  witnessed_by: string;
  witnessed_at: string;
}
