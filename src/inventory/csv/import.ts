import { CsvError, parse } from 'csv-parse/sync';
import { emitEvents } from '../../events/outbox.js';
import { assertLabNotMigrating } from '../../labs/migrating.js';
import { findLabRow, findVisibleLab, lockLab } from '../../labs/repository.js';
import { resolveLocationPaths } from '../../locations/path-repository.js';
import { type Actor, isSystemActor, type SystemActor } from '../../shared/actor.js';
import type { Executor } from '../../shared/db/database.js';
import type { ServiceDeps } from '../../shared/deps.js';
import { AppError, notFound } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { nowIso } from '../../shared/time.js';
import { typeNameKey, typesOfLab } from '../../types/repository.js';
import { newItemRow } from '../item-row.js';
import { renderItems } from '../render.js';
import type { InstanceRow, ItemRow } from '../repository.js';
import { storeChanged } from '../stored/documents.js';
import { insertInstances, insertItems } from './repository.js';
import {
  type CsvColumn,
  checkRow,
  conflictWith,
  type ImportRow,
  identityOf,
  MAX_IMPORT_ROWS,
  MAX_REPORTED_ERRORS,
  mapHeader,
  pathKey,
  type RowError,
} from './rules.js';
import type { ImportResult } from './schemas.js';

// A lab's inventory from CSV (docs/csv.md). Every row is checked first; a dry run reports what would happen and
// writes nothing; a real run with any bad row writes nothing either (422 with the same list); a good run creates
// everything in one transaction: locations from their paths, the items and their instances, their search index,
// and one inventory-item.created per item, as creating them one by one would (src/inventory/items.ts createItemIn),
// written through the outbox in batches.

/** Items written, rendered and announced per batch inside the transaction. */
const BATCH = 500;

type LabRow = NonNullable<Awaited<ReturnType<typeof findLabRow>>>;

export interface ImportOptions {
  dryRun: boolean;
  /** Rows written so far, of all rows (a real run only). */
  onProgress?: (done: number, total: number) => void;
}

interface Plan {
  rows: number;
  /** Rows grouped into items: each group is one item; in a migrated lab its rows with a quantity are its instances. */
  items: ImportRow[][];
  typeIds: Map<string, string>;
  errors: RowError[];
}

/** Splits the text into records with the line each starts on; a malformed file is one error. */
function records(text: string): { line: number; cells: string[] }[] | RowError {
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    parsed = parse(text, {
      bom: true,
      relax_column_count: true,
      info: true,
      record_delimiter: ['\r\n', '\n', '\r'],
    }) as unknown as typeof parsed;
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    const line = (err as CsvError & { lines?: number }).lines ?? 1;
    return { line, column: null, code: 'malformed_csv', message: err.message };
  }
  let end = 0;
  return parsed.map(({ record, info }) => {
    const line = end + 1;
    end = info.lines;
    return { line, cells: record };
  });
}

const tooManyRows = (n: number) =>
  new AppError('import_too_many_rows', `The file has ${n} rows; an import takes at most ${MAX_IMPORT_ROWS}: split it into several files`);

/** Checks every row of the file against the lab; reads the lab's types, writes nothing. */
async function plan(ex: Executor, lab: LabRow, text: string): Promise<Plan> {
  const out: Plan = { rows: 0, items: [], typeIds: new Map(), errors: [] };
  const recs = records(text);
  if (!Array.isArray(recs)) return { ...out, errors: [recs] };
  const [header, ...body] = recs;
  const data = body.filter((r) => r.cells.some((c) => c.trim() !== ''));
  if (data.length > MAX_IMPORT_ROWS) throw tooManyRows(data.length);
  out.rows = data.length;
  if (!header)
    return { ...out, errors: [{ line: 1, column: null, code: 'missing_header', message: 'the file is empty: a header row is required' }] };
  const { columns, errors } = mapHeader(header.cells);
  if (errors.length > 0) return { ...out, errors };
  for (const t of await typesOfLab(ex, lab.id)) out.typeIds.set(t.name_key, t.id);

  const migrated = lab.uses_instances === 1;
  const groups = new Map<string, ImportRow[]>();
  for (const rec of data) {
    if (rec.cells.length !== columns.length) {
      out.errors.push({
        line: rec.line,
        column: null,
        code: 'column_count',
        message: `${rec.cells.length} fields where the header has ${columns.length}`,
      });
      continue;
    }
    const cells: Partial<Record<CsvColumn, string>> = {};
    for (const [i, c] of columns.entries()) cells[c!] = rec.cells[i];
    const checked = checkRow(rec.line, cells, migrated);
    if ('errors' in checked) {
      out.errors.push(...checked.errors);
      continue;
    }
    const row = checked.row;
    if (row.type !== null && !out.typeIds.has(typeNameKey(row.type))) {
      out.errors.push({ line: row.line, column: 'type', code: 'unknown_type', message: `this lab has no type "${row.type}"` });
      continue;
    }
    if (!migrated) {
      out.items.push([row]);
      continue;
    }
    const key = identityOf(row);
    const group = groups.get(key);
    if (!group) {
      const fresh = [row];
      groups.set(key, fresh);
      out.items.push(fresh);
      continue;
    }
    const conflict = conflictWith(group[0]!, row);
    if (conflict) out.errors.push(conflict);
    else group.push(row);
  }
  return out;
}

const isInstance = (r: ImportRow) => r.quantity !== null;

function outcome(p: Plan, dryRun: boolean, migrated: boolean, locationsCreated: number): ImportResult {
  return {
    dry_run: dryRun,
    rows: p.rows,
    items: p.items.length,
    instances: migrated ? p.items.reduce((n, g) => n + g.filter(isInstance).length, 0) : 0,
    locations_created: locationsCreated,
    error_count: p.errors.length,
    errors: p.errors.slice(0, MAX_REPORTED_ERRORS),
  };
}

export const importRejected = (result: ImportResult) => {
  const first = result.errors[0]!;
  return new AppError(
    'validation_failed',
    `${result.error_count} problem${result.error_count === 1 ? '' : 's'} in the file; nothing was imported (line ${first.line}${first.column ? `, ${first.column}` : ''}: ${first.message})`,
    { extra: { import_errors: result.errors, error_count: result.error_count } },
  );
};

/** Writes a checked plan in the caller's transaction (the lab locked); returns the locations created. */
async function apply(trx: Executor, deps: ServiceDeps, lab: LabRow, userId: string, p: Plan, opts: ImportOptions): Promise<number> {
  const migrated = lab.uses_instances === 1;
  const now = nowIso();
  const paths = migrated ? p.items.flatMap((g) => g.filter((r) => r.path.length > 0).map((r) => r.path)) : [];
  const locations = await resolveLocationPaths(trx, lab.id, paths, now, false);
  let done = 0;
  for (let start = 0; start < p.items.length; start += BATCH) {
    const batch = p.items.slice(start, start + BATCH);
    const items: ItemRow[] = [];
    const instances: InstanceRow[] = [];
    for (const group of batch) {
      const first = group[0]!;
      const id = newId();
      const own = migrated ? group.filter(isInstance) : [];
      for (const r of own) {
        instances.push({
          id: newId(),
          item_id: id,
          quantity: r.quantity!,
          lot_number: r.lotNumber,
          expiration_date: r.expirationDate,
          location_id: r.path.length > 0 ? locations.ids.get(pathKey(r.path))! : null,
          archived_at: null,
          created_at: now,
          updated_at: now,
        });
      }
      items.push(
        newItemRow(
          {
            labId: lab.id,
            typeId: first.type === null ? null : p.typeIds.get(typeNameKey(first.type))!,
            name: first.name,
            vendor: first.vendor,
            catalogNumber: first.catalogNumber,
            price: first.price,
            unitSize: first.unitSize,
            quantity: first.quantity ?? undefined,
            url: first.url,
            technicalDetails: first.technicalDetails,
            expirationDate: first.expirationDate,
            autoReminder: first.autoReminder,
            lotNumber: first.lotNumber,
            casNumber: first.casNumber,
            vendorProductId: first.vendorProductId,
            locationName: first.path[0] ?? null,
            sublocationName: first.path[1] ?? null,
            serialNumber: first.serialNumber,
          },
          migrated,
          // What the search index will say (src/inventory/search/rules.ts itemIndexOf), so storing it updates nothing.
          { id, userId, now, ...(migrated ? { expiries: own.map((r) => r.expirationDate) } : {}) },
        ),
      );
      done += group.length;
    }
    await insertItems(trx, items);
    await insertInstances(trx, instances);
    const rendered = await renderItems(trx, deps.config.appUrl, items);
    await storeChanged(
      trx,
      items.map((row, k) => ({ row, item: rendered[k]! })),
    );
    await emitEvents(
      trx,
      deps.config,
      rendered.map((item) => ({
        type: 'inventory-item.created' as const,
        organizationId: lab.organization_id,
        labId: lab.id,
        resource: item,
      })),
    );
    opts.onProgress?.(done, p.rows);
  }
  return locations.created;
}

/**
 * The dry run: the report of what importing `text` would do, nothing written. An Actor sees only its labs (another
 * tenant's is 404); the system, for the command line's dry run that names no user, any lab.
 */
export async function checkLabInventory(deps: ServiceDeps, by: Actor | SystemActor, labId: string, text: string): Promise<ImportResult> {
  const visible = isSystemActor(by) || (await findVisibleLab(deps.db, by, labId));
  const lab = visible ? await findLabRow(deps.db, labId) : undefined;
  if (!lab) throw notFound('lab');
  const p = await plan(deps.db, lab, text);
  const migrated = lab.uses_instances === 1;
  const paths = migrated && p.errors.length === 0 ? p.items.flatMap((g) => g.map((r) => r.path)) : [];
  const locations = await resolveLocationPaths(deps.db, lab.id, paths, nowIso(), true);
  return outcome(p, true, migrated, locations.created);
}

/**
 * POST /labs/{id}/inventory/import (and `admin inventory import`): anyone who may create items in the lab (who sees
 * it), as the items' creator; another tenant's lab is 404. Everything or, with any bad row, nothing (422
 * validation_failed listing the rows); a dry run is checkLabInventory.
 */
export async function importLabInventory(
  deps: ServiceDeps,
  actor: Actor,
  labId: string,
  text: string,
  opts: ImportOptions,
): Promise<ImportResult> {
  if (opts.dryRun) return checkLabInventory(deps, actor, labId, text);
  const visible = await findVisibleLab(deps.db, actor, labId);
  if (!visible) throw notFound('lab');
  return deps.db.transaction().execute(async (trx) => {
    // Tree changes of a lab are serialized by its lock (src/locations/service.ts); a migration cannot start meanwhile.
    await lockLab(trx, visible.id);
    await assertLabNotMigrating(trx, visible.id, { share: true });
    const lab = await findLabRow(trx, visible.id);
    if (!lab) throw notFound('lab');
    const p = await plan(trx, lab, text);
    if (p.errors.length > 0) throw importRejected(outcome(p, false, lab.uses_instances === 1, 0));
    const created = await apply(trx, deps, lab, actor.userId, p, opts);
    return outcome(p, false, lab.uses_instances === 1, created);
  });
}
