// Label codes (migration 0031, docs/labels.md): src/labels/ owns this table.

export type LabelKind = 'instance' | 'location' | 'item';

export interface LabelCodesTable {
  /** 10 characters of an alphabet without 0, O, 1 or I (src/labels/rules.ts); random, never reused. */
  code: string;
  organization_id: string;
  kind: LabelKind;
  /** The instance, location or (legacy lab) item; no foreign key, so a deleted target keeps its code. */
  target_id: string;
  lab_id: string;
  created_at: string;
  /** When the target was deleted; the code still resolves to nothing and is never handed out again. */
  retired_at: string | null;
}
