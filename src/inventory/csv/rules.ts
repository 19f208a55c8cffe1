import { normalizeCodes } from '../../hazards/rules.js';
import { MAX_LOCATION_DEPTH } from '../../locations/rules.js';
import { type Camel, camel } from '../../shared/camel.js';
import { DECIMAL_PATTERN } from '../../shared/decimal.js';
import { AppError } from '../../shared/errors.js';
import { isWebPage, WEB_PAGE_RULE } from '../../shared/schemas.js';
import { ITEM_FIELD_KEYS, ITEM_FIELDS, type ItemColumn, type ItemFieldKey } from '../schemas.js';

// The CSV form of a lab's inventory (docs/csv.md): its columns, how a header maps onto them, how a cell is written
// (RFC 4180 quoting, formula cells neutralised) and how an imported row is checked. No database here.

type Fields = typeof ITEM_FIELDS;
/** The item fields with a column of their own (all but a legacy item's sublocation, which is in its location's path). */
type CsvField = { [K in ItemFieldKey]: Fields[K] extends { csv: object } ? K : never }[ItemFieldKey];
const CSV_FIELDS = ITEM_FIELD_KEYS.filter((k): k is CsvField => 'csv' in ITEM_FIELDS[k]);

/** The columns of an export, in order; an import takes any subset of them (name is required) in any order. */
export const CSV_COLUMNS = ['item_id', 'instance_id', ...CSV_FIELDS.map((k) => ITEM_FIELDS[k].csv.header), 'hazard_statements'] as const;
export type CsvColumn = 'item_id' | 'instance_id' | Fields[CsvField]['csv']['header'] | 'hazard_statements';

/** The inventory_items column an item field's CSV column is kept in. */
const COLUMNS = new Map<string, ItemColumn>(CSV_FIELDS.map((k) => [ITEM_FIELDS[k].csv.header, ITEM_FIELDS[k].column]));
export const columnOf = (header: CsvColumn): ItemColumn => COLUMNS.get(header)!;

/** Other spellings a header may use (compared after normalizeHeader). */
const ALIASES: Record<string, CsvColumn> = Object.fromEntries([
  ['id', 'item_id'],
  ['hazards', 'hazard_statements'],
  ['h_statements', 'hazard_statements'],
  ...CSV_FIELDS.flatMap((k) => ITEM_FIELDS[k].csv.aliases.map((alias) => [alias, ITEM_FIELDS[k].csv.header])),
]);

/** Maximum CSV upload, and rows per import: the import validates everything before writing, in memory. */
export const MAX_IMPORT_BYTES = 32 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 100_000;
/** Errors listed in an answer; `error_count` has them all. */
export const MAX_REPORTED_ERRORS = 1000;

/** "Catalog #", " CATALOG-NUMBER " and "catalog_number" are one column. */
export const normalizeHeader = (h: string): string =>
  h
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9#]+/g, '_')
    .replace(/^_+|_+$/g, '');

export interface RowError {
  /** 1-based line of the file where the row starts (the header is line 1). */
  line: number;
  column: string | null;
  code: string;
  message: string;
}

/** Which column each field of the file is: an error for unknown, repeated or missing ones (all on line 1). */
export function mapHeader(header: string[]): { columns: (CsvColumn | null)[]; errors: RowError[] } {
  const errors: RowError[] = [];
  const seen = new Set<CsvColumn>();
  const known = new Set<string>(CSV_COLUMNS);
  const columns = header.map((raw) => {
    const key = normalizeHeader(raw);
    const column = (known.has(key) ? key : ALIASES[key]) as CsvColumn | undefined;
    if (!column) {
      errors.push({ line: 1, column: raw, code: 'unknown_column', message: `unknown column "${raw}"; known: ${CSV_COLUMNS.join(', ')}` });
      return null;
    }
    if (seen.has(column)) errors.push({ line: 1, column: raw, code: 'duplicate_column', message: `"${raw}" is ${column} again` });
    seen.add(column);
    return column;
  });
  if (!seen.has('name') && header.length > 0)
    errors.push({ line: 1, column: 'name', code: 'missing_column', message: 'the name column is required' });
  return { columns, errors };
}

// Cells a spreadsheet would run as a formula (OWASP "CSV injection"): they are written with a leading apostrophe,
// which spreadsheets show as text. An import takes one leading apostrophe off such a cell again, so a file goes
// out and comes back unchanged; a value that itself begins with apostrophes before such a character keeps them.
const FORMULA = /^'*[=+\-@\t\r]/;
const NEUTRALISED = /^'+[=+\-@\t\r]/;

export const neutralise = (value: string): string => (FORMULA.test(value) ? `'${value}` : value);
export const unneutralise = (value: string): string => (NEUTRALISED.test(value) ? value.slice(1) : value);

/** One field, RFC 4180: quoted when it holds a comma, a quote, CR or LF (quotes doubled). */
export function csvField(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const v = neutralise(value);
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** One record with its CRLF line break (RFC 4180). */
export const csvRecord = (values: (string | null | undefined)[]): string => `${values.map(csvField).join(',')}\r\n`;

export const LOCATION_SEPARATOR = ' / ';
/** A slash with white space on both sides: "Room 1 / Shelf 2" is two levels, "4°C/-20°C" one name. */
const SEPARATOR = /\s+\/(?=\s)/;
const MAX_LOCATION_NAME = 200;
const MAX_NAME = 500;

export const joinPath = (names: (string | null | undefined)[]): string => names.filter((n): n is string => !!n).join(LOCATION_SEPARATOR);

const DECIMAL = new RegExp(DECIMAL_PATTERN);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** The fields whose cell is kept as it is read (checked first, by its kind). */
type CellField = { [K in CsvField]: Fields[K]['csv']['check'] extends 'type name' | 'location path' | 'name' ? never : K }[CsvField];
const CELLS = CSV_FIELDS.filter((k): k is CellField => !['type name', 'location path', 'name'].includes(ITEM_FIELDS[k].csv.check)).map(
  (k) => ({ ...ITEM_FIELDS[k].csv, key: camel(ITEM_FIELDS[k].column) }),
);

type CellKey = Camel<Fields[CellField]['column']>;

/** A checked row: item fields (under their columns' camelCase names, as NewItem has them) and one instance when given. */
export type ImportRow = {
  line: number;
  name: string;
  type: string | null;
  /** Location names, root first ([] when none). */
  path: string[];
  /** The item's own hazard statements (normalized); [] "none"; null when the cell is empty (it follows its type). */
  hazards: string[] | null;
} & Record<CellKey, string | null>;

const BLANK_ROW: ImportRow = {
  line: 0,
  name: '',
  type: null,
  path: [],
  hazards: null,
  ...(Object.fromEntries(CELLS.map((c) => [c.key, null])) as Record<CellKey, null>),
};

/** Item fields that must agree between rows that make one item (everything but the identity and the instance). */
const IDENTITY: readonly ItemFieldKey[] = ['name', 'vendor', 'catalog_number'];
const AGREEING = CSV_FIELDS.filter((k) => !IDENTITY.includes(k) && !('legacyOnly' in ITEM_FIELDS[k])).map((k) => ({
  field: k,
  key: camel(ITEM_FIELDS[k].column) as keyof ImportRow,
  label: ITEM_FIELDS[k].label,
}));

/** Name, vendor and catalog number: rows that share them make one item with several instances (migrated labs). */
export const identityOf = (r: ImportRow): string => JSON.stringify([r.name, r.vendor, r.catalogNumber]);

/**
 * Checks one record (already split into fields and mapped by column) for a lab that uses instances or not.
 * Returns the row, or every problem it has.
 */
export function checkRow(
  line: number,
  cells: Partial<Record<CsvColumn, string>>,
  migrated: boolean,
): { row: ImportRow } | { errors: RowError[] } {
  const errors: RowError[] = [];
  const fail = (column: CsvColumn, code: string, message: string) => errors.push({ line, column, code, message });
  const get = (c: CsvColumn): string | null => {
    const v = unneutralise((cells[c] ?? '').trim());
    return v === '' ? null : v;
  };
  for (const c of ['item_id', 'instance_id'] as const) {
    if (get(c) !== null) fail(c, 'has_id', `an import creates new items: leave ${c} empty (to copy exported rows, clear the column)`);
  }
  const name = get('name');
  if (name === null) fail('name', 'required', 'name is required');
  else if (name.length > MAX_NAME) fail('name', 'too_long', `at most ${MAX_NAME} characters`);
  // A copy of one template, filled in: every row has the same shape (V8 keeps 50,000 first rows of items compactly).
  const row = { ...BLANK_ROW };
  for (const { header, check, key } of CELLS) {
    const v = get(header);
    (row as Record<string, unknown>)[key] = v;
    if (v === null || check === 'text') continue;
    if (check === 'decimal' && !DECIMAL.test(v)) fail(header, 'invalid_decimal', `"${v}" is not a non-negative decimal like 12.5`);
    if (check === 'date' && !isDate(v)) fail(header, 'invalid_date', `"${v}" is not a date YYYY-MM-DD`);
    if (check === 'uuid' && !UUID.test(v)) fail(header, 'invalid_uuid', 'must be a UUID');
    if (check === 'web page' && !isWebPage(v)) fail(header, 'invalid_url', `the web page ${WEB_PAGE_RULE}`);
  }
  const rawPath = get('location');
  const path = rawPath === null ? [] : rawPath.split(SEPARATOR).map((n) => n.trim());
  const maxDepth = migrated ? MAX_LOCATION_DEPTH : 2;
  if (path.some((n) => n === '')) fail('location', 'invalid_location', `"${rawPath}" has an empty level`);
  else if (path.some((n) => n.length > MAX_LOCATION_NAME))
    fail('location', 'invalid_location', `a level is longer than ${MAX_LOCATION_NAME} characters`);
  else if (path.length > maxDepth) {
    fail(
      'location',
      'location_too_deep',
      migrated
        ? `${path.length} levels; locations are at most ${MAX_LOCATION_DEPTH} deep`
        : `${path.length} levels; a lab that does not use instances keeps a location and a sublocation only`,
    );
  }
  const hazards = hazardsOfCell(get('hazard_statements'));
  if ('error' in hazards) fail('hazard_statements', 'invalid_hazard_statement', hazards.error);
  const instanceGiven = row.lotNumber !== null || row.expirationDate !== null || path.length > 0;
  if (migrated && instanceGiven && row.quantity === null)
    fail('quantity', 'required', 'an instance (lot, expiry or location given) needs a quantity');
  if (errors.length > 0) return { errors };
  row.line = line;
  row.name = name!;
  row.type = get('type');
  row.path = path;
  row.hazards = (hazards as { codes: string[] | null }).codes;
  return { row };
}

/**
 * What the rows of one item must agree on, as one string: a dry run keeps this (and the line) of each item's first
 * row instead of the row itself, a third of the memory (test/api/inventory-csv/import-memory.happy.test.ts).
 */
export interface FirstRow {
  line: number;
  agreement: string;
}

const agreeingValues = (row: ImportRow): (string | null)[] => [
  // Types are found by name whatever the case (src/types/repository.ts typeNameKey).
  ...AGREEING.map((f) => (f.field === 'type_id' ? (row.type?.toLocaleLowerCase('en-US') ?? null) : (row[f.key] as string | null))),
  hazardCell(row.hazards),
];

export const firstRowOf = (row: ImportRow): FirstRow => ({ line: row.line, agreement: JSON.stringify(agreeingValues(row)) });

/** A row's item fields that differ from those of the first row of its item, as an error (or null). */
export function conflictWith(first: FirstRow, row: ImportRow): RowError | null {
  const values = agreeingValues(row);
  if (JSON.stringify(values) === first.agreement) return null;
  const was = JSON.parse(first.agreement) as (string | null)[];
  const labels = [...AGREEING.map((f) => f.label), 'hazard statements'];
  const differ = labels.filter((_, i) => was[i] !== values[i]);
  return {
    line: row.line,
    column: null,
    code: 'conflicting_item',
    message: `same name, vendor and catalog number as line ${first.line}, but a different ${differ.join(', ')}: rows of one item must agree`,
  };
}

/** Location paths are compared by their names joined with a separator no name holds. */
export const pathKey = (path: string[]): string => path.join('\u0000');

// The hazard_statements column (docs/csv.md, docs/hazards.md): codes separated by spaces, commas or semicolons
// ("H225 H319", "H225, H319"); a combined statement keeps its plus signs ("H300+H310" or "H300 + H310"); "none"
// records that the item has no hazards; empty, that it has none of its own (it shows its type's).
export const NO_HAZARDS = 'none';

/** The cell of an item's own statements (null: none of its own). */
export const hazardCell = (codes: readonly string[] | null): string | null =>
  codes === null ? null : codes.length === 0 ? NO_HAZARDS : codes.join(' ');

export function hazardsOfCell(cell: string | null): { codes: string[] | null } | { error: string } {
  if (cell === null) return { codes: null };
  if (cell.toLowerCase() === NO_HAZARDS) return { codes: [] };
  const parts = cell
    .replace(/\s*\+\s*/g, '+')
    .split(/[\s,;]+/)
    .filter(Boolean);
  try {
    return { codes: normalizeCodes(parts) };
  } catch (err) {
    if (err instanceof AppError) return { error: err.message };
    throw err;
  }
}
