import { setImmediate as nextTurn } from 'node:timers/promises';
import { emitEvents } from '../../events/outbox.js';
import { insertItemHazardsIn } from '../../hazards/repository.js';
import { assignCodes } from '../../labels/repository.js';
import { assertLabNotMigrating } from '../../labs/migrating.js';
import { findLabRow, findVisibleLab, lockLab } from '../../labs/repository.js';
import { resolveLocationPaths } from '../../locations/path-repository.js';
import { type Actor, isSystemActor, type SystemActor } from '../../shared/actor.js';
import { type Db, type Executor, openDatabase } from '../../shared/db/database.js';
import type { ServiceDeps } from '../../shared/deps.js';
import { AppError, notFound } from '../../shared/errors.js';
import { newId } from '../../shared/ids.js';
import { nowIso } from '../../shared/time.js';
import { typeNameKey, typesOfLab } from '../../types/repository.js';
import { newItemRow } from '../item-row.js';
import { renderItems } from '../render.js';
import type { InstanceRow, ItemRow } from '../repository.js';
import { storeChanged } from '../stored/documents.js';
import { checkImportBatch, type ImportPlacement, importPlacementRefused, type NewContainer, noImportPlacement } from './placement.js';
import { type Plan, plan } from './plan.js';
import { insertInstances, insertItems } from './repository.js';
import { type ImportRow, pathKey } from './rules.js';
import type { ImportResult } from './schemas.js';
import { takeImportSlot } from './slots.js';

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

const isInstance = (r: ImportRow) => r.quantity !== null;

function outcome(p: Plan, dryRun: boolean, migrated: boolean, locationsCreated: number): ImportResult {
  return {
    dry_run: dryRun,
    rows: p.rows,
    items: p.itemCount,
    instances: migrated ? p.instanceCount : 0,
    locations_created: locationsCreated,
    error_count: p.errorCount,
    errors: p.errors,
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
async function apply(
  trx: Executor,
  deps: ServiceDeps,
  lab: LabRow,
  userId: string,
  p: Plan,
  opts: ImportOptions,
): Promise<{ created: number; placement: ImportPlacement }> {
  const placement = noImportPlacement();
  const migrated = lab.uses_instances === 1;
  const now = nowIso();
  const locations = await resolveLocationPaths(trx, lab.id, [...p.paths.values()], now, false);
  let done = 0;
  for (let start = 0; start < p.items.length; start += BATCH) {
    const batch = p.items.slice(start, start + BATCH);
    const items: ItemRow[] = [];
    const instances: InstanceRow[] = [];
    const containers: NewContainer[] = [];
    const ownHazards: { itemId: string; codes: string[] }[] = [];
    for (const group of batch) {
      const first = group[0]!;
      const id = newId();
      const own = migrated ? group.filter(isInstance) : [];
      const { line: _, type, path, hazards, ...fields } = first;
      const typeId = type === null ? null : p.typeIds.get(typeNameKey(type))!;
      for (const r of own) {
        const locationId = r.path.length > 0 ? locations.ids.get(pathKey(r.path))! : null;
        containers.push({
          line: r.line,
          locationId,
          incoming: { instanceId: null, itemId: id, typeId, itemName: first.name, unitSize: first.unitSize, quantity: r.quantity! },
        });
        instances.push({
          id: newId(),
          item_id: id,
          quantity: r.quantity!,
          lot_number: r.lotNumber,
          expiration_date: r.expirationDate,
          location_id: locationId,
          archived_at: null,
          created_at: now,
          updated_at: now,
        });
      }
      if (hazards !== null) ownHazards.push({ itemId: id, codes: hazards });
      items.push(
        newItemRow(
          {
            ...fields,
            labId: lab.id,
            typeId,
            quantity: fields.quantity ?? undefined,
            locationName: path[0] ?? null,
            sublocationName: path[1] ?? null,
          },
          migrated,
          // What the search index will say (src/inventory/search/rules.ts itemIndexOf), so storing it updates nothing.
          { id, userId, now, ...(migrated ? { expiries: own.map((r) => r.expirationDate) } : {}) },
        ),
      );
      done += group.length;
    }
    await insertItems(trx, items);
    await insertItemHazardsIn(trx, lab.id, ownHazards, { userId, now });
    // Where the containers go, checked before they are there (src/inventory/csv/placement.ts).
    await checkImportBatch(trx, lab.id, containers, placement);
    await insertInstances(trx, instances);
    if (migrated)
      await assignCodes(
        trx,
        'instance',
        lab.id,
        instances.map((i) => i.id),
      );
    else
      await assignCodes(
        trx,
        'item',
        lab.id,
        items.map((i) => i.id),
      );
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
    // Other requests are answered between batches (on SQLite this transaction has its own connection: importOn).
    await nextTurn();
  }
  // Block mode: refused with every row named, so the transaction writes nothing.
  const refused = importPlacementRefused(placement);
  if (refused) throw refused;
  return { created: locations.created, placement };
}

/**
 * Runs `work` on a connection of its own on SQLite (a file), so the process's one connection keeps answering
 * reads while the import's transaction holds the write lock (WAL: readers do not wait for the writer; writers wait
 * on timers, src/shared/db/sqlite-driver.ts). PostgreSQL's pool has other connections already.
 */
async function importOn<T>(deps: ServiceDeps, work: (db: Db) => Promise<T>): Promise<T> {
  const target = deps.config.database;
  if (target.kind !== 'sqlite' || target.file === ':memory:') return work(deps.db);
  const own = openDatabase(target);
  try {
    return await work(own.db);
  } finally {
    await own.close();
  }
}

/**
 * The dry run: the report of what importing `text` would do, nothing written. An Actor sees only its labs (another
 * tenant's is 404); the system, for the command line's dry run that names no user, any lab.
 */
export async function checkLabInventory(deps: ServiceDeps, by: Actor | SystemActor, labId: string, text: string): Promise<ImportResult> {
  const visible = isSystemActor(by) || (await findVisibleLab(deps.db, by, labId));
  const lab = visible ? await findLabRow(deps.db, labId) : undefined;
  if (!lab) throw notFound('lab');
  const release = takeImportSlot(deps.db, deps.config.importConcurrency, lab.id);
  try {
    const p = await plan(deps.db, lab, text, false);
    const migrated = lab.uses_instances === 1;
    const paths = migrated && p.errorCount === 0 ? [...p.paths.values()] : [];
    const locations = await resolveLocationPaths(deps.db, lab.id, paths, nowIso(), true);
    return outcome(p, true, migrated, locations.created);
  } finally {
    release();
  }
}

/** Whether a plan made before the lab's lock still holds under it: the same kind of lab, its types still there. */
async function stillHolds(trx: Executor, lab: { id: string; uses_instances: number }, planned: { uses_instances: number }, p: Plan) {
  if (lab.uses_instances !== planned.uses_instances) return false;
  const now = new Set((await typesOfLab(trx, lab.id)).map((t) => `${t.name_key}\u0000${t.id}`));
  return [...p.typeIds].every(([key, id]) => now.has(`${key}\u0000${id}`));
}

/**
 * POST /labs/{id}/inventory/import (and `admin inventory import`): anyone who may create items in the lab (who sees
 * it), as the items' creator; another tenant's lab is 404. Everything or, with any bad row, nothing (422
 * validation_failed listing the rows); a dry run is checkLabInventory. The file is checked before the transaction
 * (the write lock is held only to write), and checked again inside it if the lab changed meanwhile.
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
  const release = takeImportSlot(deps.db, deps.config.importConcurrency, visible.id);
  try {
    const before = await findLabRow(deps.db, visible.id);
    if (!before) throw notFound('lab');
    let p = await plan(deps.db, before, text, true);
    if (p.errorCount > 0) throw importRejected(outcome(p, false, before.uses_instances === 1, 0));
    return await importOn(deps, (db) =>
      db.transaction().execute(async (trx) => {
        // Tree changes of a lab are serialized by its lock (src/locations/service.ts); a migration cannot start meanwhile.
        await lockLab(trx, visible.id);
        await assertLabNotMigrating(trx, visible.id, { share: true });
        const lab = await findLabRow(trx, visible.id);
        if (!lab) throw notFound('lab');
        if (!(await stillHolds(trx, lab, before, p))) p = await plan(trx, lab, text, true);
        if (p.errorCount > 0) throw importRejected(outcome(p, false, lab.uses_instances === 1, 0));
        const { created, placement } = await apply(trx, deps, lab, actor.userId, p, opts);
        const result = outcome(p, false, lab.uses_instances === 1, created);
        return placement.warnings.length > 0 ? { ...result, placement_warnings: placement.warnings } : result;
      }),
    );
  } finally {
    release();
  }
}
