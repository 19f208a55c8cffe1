import { createWriteStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import type { InventoryImportError } from '../inventory/csv/schemas.js';
import { type Actor, systemActor } from '../shared/actor.js';
import type { Db } from '../shared/db/database.js';
import { AppError, notFound } from '../shared/errors.js';
import { withContext } from './context.js';
import { emit, UsageError } from './output.js';

// The actions import their services when they run (src/cli/admin.ts says why).
const csvRules = () => import('../inventory/csv/rules.js');

// `labstock admin inventory export|import`: a lab's inventory as CSV, the same files and rules as the API
// (docs/csv.md). Progress on stderr, only on a terminal and never with --json (as `admin shop import`).

type Json = { json?: boolean };

/** Started by its first update, when the total is known. */
async function progressBar(enabled: boolean, label: string) {
  if (!enabled || !process.stderr.isTTY) return { update: (_n: number, _total: number) => undefined, stop: () => undefined };
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {percentage}% {value}/{total} | {eta_formatted} left`, stream: process.stderr },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update: (n: number, total: number) => {
      if (!started) bar.start(total, 0);
      started = true;
      bar.update(n);
    },
    stop: () => started && bar.stop(),
  };
}

/** The problems of a refused import, twenty of them, as one error. */
async function listProblems(err: unknown): Promise<never> {
  const extra = err instanceof AppError ? err.details.extra : undefined;
  const errors = extra?.import_errors as InventoryImportError[] | undefined;
  if (!errors) throw err;
  const count = extra!.error_count as number;
  const lines = errors.slice(0, 20).map((e) => `  line ${e.line}${e.column ? `, ${e.column}` : ''}: ${e.message} (${e.code})`);
  const { MAX_REPORTED_ERRORS } = await csvRules();
  if (count > 20) lines.push(`  … and ${count - 20} more (--dry-run lists ${MAX_REPORTED_ERRORS})`);
  throw new AppError(
    'validation_failed',
    `${count} problem${count === 1 ? '' : 's'} in the file; nothing was imported:\n${lines.join('\n')}`,
  );
}

/**
 * Who the import runs as: the user named by --user, in the lab's organization. The command line has the
 * installation's authority over every lab (as `admin lab add-member`), so the user acts as that organization's admin
 * (as test/helpers/fixtures.ts orgAdminActor): --user only names who the items are added by, an active member.
 */
async function importActor(db: Db, labId: string, userId: string): Promise<Actor> {
  const [{ findLabRow }, { findOrgMembership }] = await Promise.all([import('../labs/repository.js'), import('../accounts/repository.js')]);
  const lab = await findLabRow(db, labId);
  if (!lab) throw notFound('lab');
  const membership = await findOrgMembership(db, lab.organization_id, userId);
  if (!membership || membership.deactivated_at) throw new UsageError(`--user: ${userId} is not an active member of the lab's organization`);
  return { tokenId: 'cli', userId, organizationId: lab.organization_id, role: 'admin' };
}

export function registerInventory(admin: Command): void {
  const inventory = admin.command('inventory').description("a lab's inventory as CSV (docs/csv.md)");

  inventory
    .command('export')
    .description("write the lab's inventory to a CSV file: one row per instance (per item in a legacy lab)")
    .requiredOption('--lab <id>', 'lab id')
    .requiredOption('--file <path>', 'the CSV file to write (replaced if it exists)')
    .option('--json', 'print JSON')
    .action((o: Json & { lab: string; file: string }) =>
      withContext(async ({ deps }) => {
        const bar = await progressBar(!o.json, 'exporting items');
        const { exportLabInventory } = await import('../inventory/csv/export.js');
        let total = 0;
        const exp = await exportLabInventory(deps, systemActor('cli'), o.lab, (n) => bar.update(n, total));
        total = exp.items;
        let bytes = 0;
        const counted = Readable.from(exp.chunks).map((chunk: string) => {
          bytes += Buffer.byteLength(chunk);
          return chunk;
        });
        try {
          await pipeline(counted, createWriteStream(o.file));
        } finally {
          bar.stop();
        }
        emit(
          !!o.json,
          { lab_id: exp.labId, file: o.file, items: exp.items, bytes },
          () => `${exp.items} items of lab ${exp.labId} written to ${o.file} (${bytes} bytes)`,
        );
      }),
    );

  inventory
    .command('import')
    .description('create items, instances and locations in the lab from a CSV file: all rows or none')
    .requiredOption('--lab <id>', 'lab id')
    .requiredOption('--file <path>', 'the CSV file (UTF-8, a header row)')
    .option('--user <id>', "who the items are added by (a user of the lab's organization); required unless --dry-run")
    .option('--dry-run', 'check the file and report every problem; change nothing')
    .option('--json', 'print JSON')
    .action((o: Json & { lab: string; file: string; user?: string; dryRun?: boolean }) =>
      withContext(async ({ deps, handle }) => {
        const size = (await stat(o.file).catch(() => null))?.size;
        if (size === undefined) throw new UsageError(`cannot read ${o.file}`);
        const { MAX_IMPORT_BYTES } = await csvRules();
        if (size > MAX_IMPORT_BYTES)
          throw new UsageError(`${o.file} is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MiB: split it into several imports`);
        if (!o.dryRun && !o.user) throw new UsageError('--user is required (who the items are added by), unless --dry-run');
        const { findUser } = await import('../accounts/repository.js');
        if (o.user && !(await findUser(handle.db, o.user))) throw new UsageError(`--user: no user ${o.user}`);
        const text = await readFile(o.file, 'utf8');
        const actor = o.user ? await importActor(handle.db, o.lab, o.user) : null;
        const bar = await progressBar(!o.json, 'importing rows');
        const { checkLabInventory, importLabInventory } = await import('../inventory/csv/import.js');
        const result = await (actor
          ? importLabInventory(deps, actor, o.lab, text, { dryRun: !!o.dryRun, onProgress: bar.update })
          : checkLabInventory(deps, systemActor('cli'), o.lab, text)
        )
          .catch(listProblems)
          .finally(() => bar.stop());
        if (o.dryRun) {
          emit(!!o.json, result, () =>
            [
              `${result.rows} rows read: ${result.items} items, ${result.instances} instances, ${result.locations_created} new locations would be created`,
              ...result.errors.map((e) => `  line ${e.line}${e.column ? `, ${e.column}` : ''}: ${e.message} (${e.code})`),
              result.error_count > result.errors.length ? `  … and ${result.error_count - result.errors.length} more` : '',
              result.error_count > 0
                ? `${result.error_count} problems: nothing would be imported`
                : 'no problems: the file can be imported',
            ]
              .filter(Boolean)
              .join('\n'),
          );
          if (result.error_count > 0) process.exitCode = 1;
          return;
        }
        emit(!!o.json, result, () =>
          [
            `${result.rows} rows imported: ${result.items} items, ${result.instances} instances, ${result.locations_created} new locations`,
            // The lab's placement checks in warn mode (docs/safety.md "Inventory import"): imported, and said.
            ...(result.placement_warnings ?? []).map((e) => `  line ${e.line}: ${e.message} (${e.code})`),
          ].join('\n'),
        );
      }),
    );
}
