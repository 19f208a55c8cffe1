// Placement safety (migration 0037, docs/safety.md): lab settings, control areas and storage attributes, owned by
// src/hazards/ (settings-repository.ts, control-area-repository.ts, segregation-repository.ts).

export type SafetyMode = 'warn' | 'block';

export interface LabSafetySettingsTable {
  lab_id: string;
  segregation: SafetyMode;
  limits: SafetyMode;
  updated_by: string;
  updated_at: string;
}

export interface ControlAreasTable {
  location_id: string;
  lab_id: string;
  /** 1: the building is sprinklered throughout (IFC footnote: +100 %). */
  sprinklered: number;
  /** 1: stored in approved storage cabinets (IFC footnote: +100 %, cumulative with sprinklers). */
  cabinets: number;
  /** JSON of the limits set by hand: [{category, state, limit}] (src/hazards/control-area-rules.ts). */
  limits: string;
  updated_by: string;
  updated_at: string;
}

export type StorageSubjectKind = 'type' | 'item';
export type CorrosiveKind = 'acid' | 'base';

export interface StorageAttributesTable {
  subject_kind: StorageSubjectKind;
  subject_id: string;
  corrosive: CorrosiveKind | null;
  /** 1: an aqueous solution (kept from water-reactives). */
  aqueous: number;
  updated_by: string;
  updated_at: string;
}
