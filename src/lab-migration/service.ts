import { setTimeout as sleep } from 'node:timers/promises';
import { emitEvents } from '../events/outbox.js';
import { renderItems } from '../inventory/render.js';
import { type InstanceRow, type ItemRow, insertChanges } from '../inventory/repository.js';
import { labFlippedToInstances, storeChanged } from '../inventory/stored/documents.js';
import { assignCodes } from '../labels/repository.js';
import { migrationStatus } from '../labs/migrating.js';
import { findLabRow, findVisibleLab, lockLab, updateLabMigration } from '../labs/repository.js';
import { type Actor, isOrgAdmin, isSystemActor, type SystemActor, systemActor } from '../shared/actor.js';
import { forEachChunk } from '../shared/db/chunks.js';
import type { Db, Executor } from '../shared/db/database.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { nowIso } from '../shared/time.js';
import { clearLegacyFields, countItems, countUnconverted, ensureLocationPaths, insertInstances, itemsAfter } from './repository.js';
import { CONVERTED, DEFAULT_BATCH_SIZE, type ItemPlan, type MigrationProgress, pathKey, planItem, progressOf } from './rules.js';

type LabMigrationRow = NonNullable<Awaited<ReturnType<typeof findLabRow>>>;

// A legacy lab's migration to instances (docs/product.md §5). It is permanent and idempotent, and it runs in batches:
// each batch is one transaction that locks the lab row, converts the next items after the lab's cursor (each
// item's legacy fields become one instance; the item's fields are cleared), announces every changed item with one
// inventory-item.updated, and advances the cursor. A process killed mid-way loses at most the batch it had not
// committed, and whoever runs the migration next (the CLI, a re-POST) continues after the last committed batch:
// no item is converted or announced twice. The batch that reaches the end flips uses_instances in its own
// transaction. While a migration runs, the lab's inventory is read-only (409 lab_migrating).

/**
 * Marks the lab as migrating (once: a started migration keeps its start, total and cursor) and returns its
 * progress. A lab that already uses instances is done; starting it again changes nothing. An Actor must be an org
 * admin (403 for members, whatever the id) who sees the lab, and is recorded as the one who started it; the system
 * (the command line, the server's runner resuming) starts it for nobody.
 */
export async function startMigration(db: Db, by: Actor | SystemActor, labId: string): Promise<MigrationProgress> {
  let startedBy: string | null = null;
  if (!isSystemActor(by)) {
    if (!isOrgAdmin(by)) throw new AppError('forbidden', 'Migrating a lab to instances needs the organization admin role');
    if (!(await findVisibleLab(db, by, labId))) throw notFound('lab');
    startedBy = by.userId;
  }
  return db.transaction().execute(async (trx) => {
    await lockLab(trx, labId);
    const lab = await findLabRow(trx, labId);
    if (!lab) throw notFound('lab');
    if (migrationStatus(lab) !== 'not_started') return progressOf(lab);
    const now = nowIso();
    await updateLabMigration(trx, labId, {
      migration_started_at: now,
      migration_started_by: startedBy,
      migration_updated_at: now,
      migration_finished_at: null,
      migration_items_total: await countItems(trx, labId),
      migration_items_done: 0,
      migration_cursor_created_at: null,
      migration_cursor_id: null,
    });
    return progressOf((await findLabRow(trx, labId))!);
  });
}

/** Converts one batch of items inside the batch's transaction; returns how many items changed. */
async function convertItems(trx: Executor, deps: ServiceDeps, lab: LabMigrationRow, rows: ItemRow[], now: string): Promise<number> {
  const planned = rows.map((row) => ({ row, plan: planItem(row) })).filter((p): p is { row: ItemRow; plan: ItemPlan } => p.plan.changed);
  if (planned.length === 0) return 0;
  const paths = planned.flatMap((p) => (p.plan.instance?.path ? [p.plan.instance.path] : []));
  const locationIds = await ensureLocationPaths(trx, lab.id, paths, now);
  const instances: InstanceRow[] = [];
  const instanceOf = new Map<string, string>();
  for (const { row, plan } of planned) {
    if (!plan.instance) continue;
    const { quantity, lot_number, expiration_date, path } = plan.instance;
    const id = newId();
    instanceOf.set(row.id, id);
    instances.push({
      id,
      item_id: row.id,
      quantity,
      lot_number,
      expiration_date,
      location_id: path ? locationIds.get(pathKey(path))! : null,
      archived_at: null,
      created_at: now,
      updated_at: now,
    });
  }
  await insertInstances(trx, instances);
  await assignCodes(
    trx,
    'instance',
    lab.id,
    instances.map((i) => i.id),
  );
  await clearLegacyFields(
    trx,
    planned.map((p) => p.row.id),
    now,
  );
  // History: what the item's legacy fields held, and the instance they became. Attributed to the admin who
  // started the migration over the API; nobody (changed_by null) when it was started from the command line.
  const changes = planned.map(({ row }) => ({
    id: newId(),
    item_id: row.id,
    instance_id: instanceOf.get(row.id) ?? null,
    user_id: lab.migration_started_by ?? '',
    field: 'migrated_to_instances',
    old_value: JSON.stringify({
      quantity: row.quantity,
      lot_number: row.lot_number,
      expiration_date: row.expiration_date,
      location: row.location_name,
      sublocation: row.sublocation_name,
    }),
    new_value: instanceOf.has(row.id) ? row.quantity : null,
    note: 'lab migrated to instances',
    created_at: now,
  }));
  await forEachChunk(changes, (chunk) => insertChanges(trx, chunk));

  // The rows as they now are (locked by this transaction, so version + 1 is exact), rendered by the inventory's
  // own batch renderer. The payload is the item as the migrated lab shows it: its lab uses instances.
  const converted = planned.map(({ row }): ItemRow => ({ ...row, ...CONVERTED, version: row.version + 1, updated_at: now }));
  const items = await renderItems(trx, deps.config.appUrl, converted);
  // The search index and the stored documents follow, in this transaction (the lot numbers, expiries and quantities
  // moved, they did not change); the documents are stored as GET shows them until the lab flips (then the whole lab
  // is written again, runBatch).
  await storeChanged(
    trx,
    converted.map((row, i) => ({ row, item: items[i]! })),
  );
  await emitEvents(
    trx,
    deps.config,
    items.map((item) => ({
      type: 'inventory-item.updated' as const,
      organizationId: lab.organization_id,
      labId: lab.id,
      resource: { ...item, lab: { ...item.lab, uses_instances: true } },
    })),
  );
  return planned.length;
}

/**
 * Runs the next batch of a started migration in one transaction. The batch that finds the end of the lab's items
 * checks that no item still holds legacy values and flips uses_instances; should one be found (an item changed
 * behind the cursor by a path that ignored the migration), the cursor starts over instead, and the next pass
 * converts only what needs it.
 */
export async function migrateNextBatch(deps: ServiceDeps, labId: string, batchSize = DEFAULT_BATCH_SIZE): Promise<MigrationProgress> {
  return deps.db.transaction().execute(async (trx) => {
    // Batches of one lab are serialized (two runners interleave, they never overlap), and writers that lock the
    // lab (receiving goods) wait for the batch.
    await lockLab(trx, labId);
    const lab = await findLabRow(trx, labId);
    if (!lab) throw notFound('lab');
    if (migrationStatus(lab) !== 'running') return progressOf(lab);
    const cursor =
      lab.migration_cursor_id !== null && lab.migration_cursor_created_at !== null
        ? { createdAt: lab.migration_cursor_created_at, id: lab.migration_cursor_id }
        : null;
    const rows = await itemsAfter(trx, labId, cursor, batchSize);
    const now = nowIso();
    await convertItems(trx, deps, lab, rows, now);
    const done = (lab.migration_items_done ?? 0) + rows.length;
    const last = rows.at(-1);
    if (rows.length === batchSize) {
      await updateLabMigration(trx, labId, {
        migration_items_done: done,
        migration_cursor_created_at: last!.created_at,
        migration_cursor_id: last!.id,
        migration_updated_at: now,
      });
    } else if ((await countUnconverted(trx, labId)) > 0) {
      await updateLabMigration(trx, labId, {
        migration_items_total: await countItems(trx, labId),
        migration_items_done: 0,
        migration_cursor_created_at: null,
        migration_cursor_id: null,
        migration_updated_at: now,
      });
    } else {
      const total = Math.max(lab.migration_items_total ?? 0, done);
      await updateLabMigration(trx, labId, {
        uses_instances: 1,
        migration_items_total: total,
        migration_items_done: total,
        migration_finished_at: now,
        migration_updated_at: now,
        ...(last ? { migration_cursor_created_at: last.created_at, migration_cursor_id: last.id } : {}),
      });
      // The lab's mode shows in its items' documents: the ones that still showed the legacy mode are written again.
      await labFlippedToInstances(trx, deps.config.appUrl, labId);
    }
    return progressOf((await findLabRow(trx, labId))!);
  });
}

export interface RunOptions {
  batchSize?: number;
  /** Called after the start and after each committed batch. */
  onProgress?: (progress: MigrationProgress) => void;
  /** Checked between batches: a stopped run leaves the migration running, to be resumed. */
  shouldStop?: () => boolean;
}

/**
 * Pause between batches. Batches take the SQLite write lock (and, in the serving process, its one connection) back
 * to back; the pause lets the requests waiting for them through, so reads stay quick meanwhile.
 */
const PAUSE_MS = 5;

/** Starts (or resumes) the lab's migration and runs batches until it is done or asked to stop. */
export async function runMigration(
  deps: ServiceDeps,
  by: Actor | SystemActor,
  labId: string,
  opts: RunOptions = {},
): Promise<MigrationProgress> {
  let progress = await startMigration(deps.db, by, labId);
  opts.onProgress?.(progress);
  while (progress.status === 'running' && !opts.shouldStop?.()) {
    progress = await migrateNextBatch(deps, labId, opts.batchSize);
    opts.onProgress?.(progress);
    if (progress.status === 'running') await sleep(PAUSE_MS);
  }
  return progress;
}

/**
 * Background runs in the serving process, at most one per lab per process. A run that fails or is stopped (the
 * app closes) leaves the migration running in the database; a re-POST or `labstock admin lab migrate` resumes it.
 */
export function createMigrationRunner(deps: ServiceDeps, log: { error: (obj: object, msg: string) => void }) {
  const running = new Map<string, Promise<void>>();
  let stopping = false;
  return {
    kick(labId: string): void {
      if (stopping || running.has(labId)) return;
      const run = runMigration(deps, systemActor('server'), labId, { shouldStop: () => stopping })
        .then(
          () => undefined,
          (err: unknown) =>
            log.error({ err, lab_id: labId }, 'lab migration stopped by an error; POST /labs/{id}/migrate-to-instances again to resume'),
        )
        .finally(() => running.delete(labId));
      running.set(labId, run);
    },
    /** Stops after the batches in flight commit. */
    async stop(): Promise<void> {
      stopping = true;
      await Promise.all(running.values());
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// What the API calls.

/** POST /labs/{id}/migrate-to-instances: org admins only (403 for members, whatever the id), then a visible lab. */
export const requestMigration = (db: Db, actor: Actor, labId: string): Promise<MigrationProgress> => startMigration(db, actor, labId);

/** GET /labs/{id}/migration: for anyone who sees the lab. */
export async function getMigrationProgress(db: Db, actor: Actor, labId: string): Promise<MigrationProgress> {
  if (!(await findVisibleLab(db, actor, labId))) throw notFound('lab');
  return progressOf((await findLabRow(db, labId))!);
}
