import { type Static, Type } from 'typebox';
import { ref } from '../../shared/schemas.js';

// What the CSV import answers (docs/csv.md); the export answers text/csv.

export const InventoryImportError = Type.Object(
  {
    line: Type.Integer({ minimum: 1, description: 'Line of the file where the row starts; the header is line 1.' }),
    column: Type.Union([Type.String(), Type.Null()], { description: 'The column at fault, when one is.' }),
    code: Type.String({ description: 'e.g. required, invalid_decimal, invalid_date, unknown_type, has_id, conflicting_item' }),
    message: Type.String(),
  },
  { $id: 'InventoryImportError', title: 'InventoryImportError', additionalProperties: false },
);
export type InventoryImportError = Static<typeof InventoryImportError>;

export const InventoryImportResult = Type.Object(
  {
    dry_run: Type.Boolean(),
    rows: Type.Integer({ description: 'Data rows read (blank lines are not rows).' }),
    items: Type.Integer({ description: 'Items created (or that would be).' }),
    instances: Type.Integer({ description: 'Instances created (or that would be); 0 in a lab that does not use instances.' }),
    locations_created: Type.Integer({
      description: 'Locations created from the rows’ paths (or that would be); existing ones are reused.',
    }),
    error_count: Type.Integer(),
    errors: Type.Array(ref(InventoryImportError), { description: 'The first 1,000 problems, in file order; [] when the file is good.' }),
    placement_warnings: Type.Optional(
      Type.Array(ref(InventoryImportError), {
        description:
          "A real run in warn mode, only when there are any: rows whose container went beside an incompatible one or over a control area's limit (code segregation_conflict or limit_exceeded), as the lab's placement checks found them (docs/safety.md). In block mode such rows refuse the import (409).",
      }),
    ),
  },
  { $id: 'InventoryImportResult', title: 'InventoryImportResult', additionalProperties: false },
);
export type ImportResult = Static<typeof InventoryImportResult>;

export const ImportQuery = Type.Object({
  dry_run: Type.Optional(Type.Boolean({ description: 'true: check the file and report, change nothing. Default false.' })),
});

/** The import's body: the CSV file itself, as text (text/csv, UTF-8). */
export const CsvFileBody = Type.String();
