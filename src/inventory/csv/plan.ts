import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CsvError, parse } from 'csv-parse';
import type { Executor } from '../../shared/db/database.js';
import { AppError } from '../../shared/errors.js';
import { typeNameKey, typesOfLab } from '../../types/repository.js';
import {
  type CsvColumn,
  checkRow,
  conflictWith,
  type FirstRow,
  firstRowOf,
  type ImportRow,
  identityOf,
  MAX_IMPORT_ROWS,
  MAX_REPORTED_ERRORS,
  mapHeader,
  pathKey,
  type RowError,
} from './rules.js';

// Checking a CSV file against a lab (docs/csv.md), without writing. The file is parsed as a stream, a slice at a
// time, and the event loop turns between slices and every few thousand rows: a 100,000-row file took seconds of
// CPU in one piece, during which the server answered nobody. What is kept is what the answer needs: a dry run
// keeps what the first row of each item says (to tell a conflicting later row), the locations' paths once each and the first
// 1,000 errors; a real run also every row of every item, which it writes.

/** Characters of the file given to the parser at a time. */
const SLICE = 128 * 1024;
/** Rows checked between two turns of the event loop. */
const ROWS_PER_TURN = 1000;

export interface Plan {
  rows: number;
  /** Rows grouped into items (a real run only; [] for a dry run): each group is one item, in a lab that uses instances its rows with a quantity its instances. */
  items: ImportRow[][];
  itemCount: number;
  instanceCount: number;
  /** The distinct location paths of instances (a lab that uses instances). */
  paths: Map<string, string[]>;
  typeIds: Map<string, string>;
  /** The first MAX_REPORTED_ERRORS problems, in file order; errorCount counts them all. */
  errors: RowError[];
  errorCount: number;
}

export interface PlanLab {
  id: string;
  uses_instances: number;
}

const tooManyRows = () =>
  new AppError(
    'import_too_many_rows',
    `The file has more than ${MAX_IMPORT_ROWS} rows; an import takes at most ${MAX_IMPORT_ROWS}: split it into several files`,
  );

function* slices(text: string): Generator<string> {
  for (let at = 0; at < text.length; at += SLICE) yield text.slice(at, at + SLICE);
}

type Rec = { line: number; cells: string[] };

/** The file's records with the line each starts on; a malformed file throws its CsvError. */
async function* records(text: string): AsyncGenerator<Rec> {
  const parser = Readable.from(slices(text)).pipe(
    parse({ bom: true, relax_column_count: true, info: true, record_delimiter: ['\r\n', '\n', '\r'] }),
  );
  let end = 0;
  let n = 0;
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    const line = end + 1;
    end = info.lines;
    yield { line, cells: record };
    if (++n % ROWS_PER_TURN === 0) await nextTurn();
  }
}

/** Checks every row of the file against the lab; reads the lab's types, writes nothing. */
export async function plan(ex: Executor, lab: PlanLab, text: string, keepRows: boolean): Promise<Plan> {
  const out: Plan = {
    rows: 0,
    items: [],
    itemCount: 0,
    instanceCount: 0,
    paths: new Map(),
    typeIds: new Map(),
    errors: [],
    errorCount: 0,
  };
  const fail = (...errors: RowError[]) => {
    for (const e of errors) if (out.errors.length < MAX_REPORTED_ERRORS) out.errors.push(e);
    out.errorCount += errors.length;
  };
  for (const t of await typesOfLab(ex, lab.id)) out.typeIds.set(t.name_key, t.id);
  const migrated = lab.uses_instances === 1;
  /** Per item (by identity): what its first row says, and all its rows when they are kept. */
  const groups = new Map<string, { first: FirstRow; rows: ImportRow[] | null }>();
  let columns: (CsvColumn | null)[] | null = null;
  let headerBad = false;
  try {
    for await (const rec of records(text)) {
      if (columns === null && !headerBad) {
        const mapped = mapHeader(rec.cells);
        if (mapped.errors.length > 0) {
          fail(...mapped.errors);
          headerBad = true;
        } else columns = mapped.columns;
        continue;
      }
      if (!rec.cells.some((c) => c.trim() !== '')) continue; // a blank line is not a row
      if (++out.rows > MAX_IMPORT_ROWS) throw tooManyRows();
      if (headerBad || columns === null) continue; // rows are counted, not checked, under a bad header
      check(rec, columns);
    }
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    const line = (err as CsvError & { lines?: number }).lines ?? 1;
    return {
      ...out,
      rows: 0,
      items: [],
      itemCount: 0,
      instanceCount: 0,
      paths: new Map(),
      errors: [{ line, column: null, code: 'malformed_csv', message: err.message }],
      errorCount: 1,
    };
  }
  if (columns === null && !headerBad)
    fail({ line: 1, column: null, code: 'missing_header', message: 'the file is empty: a header row is required' });
  return out;

  function check(rec: Rec, cols: (CsvColumn | null)[]): void {
    if (rec.cells.length !== cols.length) {
      fail({
        line: rec.line,
        column: null,
        code: 'column_count',
        message: `${rec.cells.length} fields where the header has ${cols.length}`,
      });
      return;
    }
    const cells: Partial<Record<CsvColumn, string>> = {};
    for (const [i, c] of cols.entries()) cells[c!] = rec.cells[i];
    const checked = checkRow(rec.line, cells, migrated);
    if ('errors' in checked) {
      fail(...checked.errors);
      return;
    }
    const row = checked.row;
    if (row.type !== null && !out.typeIds.has(typeNameKey(row.type))) {
      fail({ line: row.line, column: 'type', code: 'unknown_type', message: `this lab has no type "${row.type}"` });
      return;
    }
    if (!migrated) {
      out.itemCount++;
      if (keepRows) out.items.push([row]);
      return;
    }
    const key = identityOf(row);
    const group = groups.get(key);
    if (group) {
      const conflict = conflictWith(group.first, row);
      if (conflict) {
        fail(conflict);
        return;
      }
      group.rows?.push(row);
    } else {
      const rows = keepRows ? [row] : null;
      groups.set(key, { first: firstRowOf(row), rows });
      if (rows) out.items.push(rows);
      out.itemCount++;
    }
    if (row.quantity !== null) {
      out.instanceCount++;
      if (row.path.length > 0) out.paths.set(pathKey(row.path), row.path);
    }
  }
}
