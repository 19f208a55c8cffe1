// A container's vendor identifiers (migration 0034, docs/scanning.md "Identifiers"): src/inventory/ owns this table.

export interface InstanceIdentifiersTable {
  instance_id: string;
  organization_id: string;
  /** GS1 AI 01: 14 digits with a valid check digit (a GTIN-8, -12 or -13 is stored padded to 14). */
  gtin: string | null;
  /** GS1 AI 21: 1 to 20 characters of GS1's character set 82. */
  serial_number: string | null;
  updated_by: string | null;
  updated_at: string;
}
