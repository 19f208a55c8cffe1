import { MAX_LOCATION_DEPTH } from '../../locations/rules.js';
import { DECIMAL_PATTERN } from '../../shared/decimal.js';
import { isWebPage, WEB_PAGE_RULE } from '../../shared/schemas.js';

// The CSV form of a lab's inventory (docs/csv.md): its columns, how a header maps onto them, how a cell is written
// (RFC 4180 quoting, formula cells neutralised) and how an imported row is checked. No database here.

/** The columns of an export, in order; an import takes any subset of them (name is required) in any order. */
export const CSV_COLUMNS = [
  'item_id',
  'instance_id',
  'name',
  'type',
  'vendor',
  'catalog_number',
  'cas_number',
  'unit_size',
  'price',
  'quantity',
  'lot_number',
  'expiration_date',
  'location',
  'serial_number',
  'url',
  'vendor_product_id',
  'auto_reminder',
  'technical_details',
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

/** Other spellings a header may use (compared after normalizeHeader). */
const ALIASES: Record<string, CsvColumn> = {
  id: 'item_id',
  item_name: 'name',
  item: 'name',
  vendor_name: 'vendor',
  supplier: 'vendor',
  manufacturer: 'vendor',
  catalog: 'catalog_number',
  catalog_no: 'catalog_number',
  'catalog_#': 'catalog_number',
  catalogue_number: 'catalog_number',
  cat_no: 'catalog_number',
  'cat_#': 'catalog_number',
  cas: 'cas_number',
  cas_no: 'cas_number',
  'cas_#': 'cas_number',
  type_name: 'type',
  unit: 'unit_size',
  qty: 'quantity',
  lot: 'lot_number',
  lot_no: 'lot_number',
  batch: 'lot_number',
  expiry: 'expiration_date',
  expiry_date: 'expiration_date',
  expiration: 'expiration_date',
  expires: 'expiration_date',
  location_path: 'location',
  serial: 'serial_number',
  serial_no: 'serial_number',
  notes: 'technical_details',
};

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

/** A checked row: item fields and (when any instance field is given) one instance. */
export interface ImportRow {
  line: number;
  name: string;
  type: string | null;
  vendor: string | null;
  catalogNumber: string | null;
  casNumber: string | null;
  unitSize: string | null;
  price: string | null;
  serialNumber: string | null;
  url: string | null;
  vendorProductId: string | null;
  autoReminder: string | null;
  technicalDetails: string | null;
  quantity: string | null;
  lotNumber: string | null;
  expirationDate: string | null;
  /** Location names, root first ([] when none). */
  path: string[];
}

/** Item fields that must agree between rows that make one item (everything but the identity and the instance). */
export const ITEM_FIELDS = [
  'type',
  'casNumber',
  'unitSize',
  'price',
  'serialNumber',
  'url',
  'vendorProductId',
  'autoReminder',
  'technicalDetails',
] as const;

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
  const url = get('url');
  if (url !== null && !isWebPage(url)) fail('url', 'invalid_url', `the web page ${WEB_PAGE_RULE}`);
  const decimal = (c: 'price' | 'quantity') => {
    const v = get(c);
    if (v !== null && !DECIMAL.test(v)) fail(c, 'invalid_decimal', `"${v}" is not a non-negative decimal like 12.5`);
    return v;
  };
  const price = decimal('price');
  const quantity = decimal('quantity');
  const expirationDate = get('expiration_date');
  if (expirationDate !== null && !isDate(expirationDate))
    fail('expiration_date', 'invalid_date', `"${expirationDate}" is not a date YYYY-MM-DD`);
  const vendorProductId = get('vendor_product_id');
  if (vendorProductId !== null && !UUID.test(vendorProductId)) fail('vendor_product_id', 'invalid_uuid', 'must be a UUID');
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
  const lotNumber = get('lot_number');
  const instanceGiven = lotNumber !== null || expirationDate !== null || path.length > 0;
  if (migrated && instanceGiven && quantity === null)
    fail('quantity', 'required', 'an instance (lot, expiry or location given) needs a quantity');
  if (errors.length > 0) return { errors };
  return {
    row: {
      line,
      name: name!,
      type: get('type'),
      vendor: get('vendor'),
      catalogNumber: get('catalog_number'),
      casNumber: get('cas_number'),
      unitSize: get('unit_size'),
      price,
      serialNumber: get('serial_number'),
      url: get('url'),
      vendorProductId,
      autoReminder: get('auto_reminder'),
      technicalDetails: get('technical_details'),
      quantity,
      lotNumber,
      expirationDate,
      path,
    },
  };
}

/** A row's item fields that differ from those of the first row of its item, as an error (or null). */
export function conflictWith(first: ImportRow, row: ImportRow): RowError | null {
  // Types are found by name whatever the case (src/types/repository.ts typeNameKey).
  const same = (f: (typeof ITEM_FIELDS)[number]) =>
    f === 'type' ? first.type?.toLocaleLowerCase('en-US') === row.type?.toLocaleLowerCase('en-US') : first[f] === row[f];
  const differ = ITEM_FIELDS.filter((f) => !same(f));
  if (differ.length === 0) return null;
  return {
    line: row.line,
    column: null,
    code: 'conflicting_item',
    message: `same name, vendor and catalog number as line ${first.line}, but a different ${differ.join(', ')}: rows of one item must agree`,
  };
}

/** Location paths are compared by their names joined with a separator no name holds. */
export const pathKey = (path: string[]): string => path.join('\u0000');
