// `labstock admin lab migrate --lab LAB` through the real binary (dist/, `npm run build` first) on the test's own
// database (SQLite, or PostgreSQL with DATABASE_URL): JSON and human output, a progress bar on a terminal, clear
// failures, and a process SIGKILLed mid-migration whose rerun finishes the job with no duplicate instance or event.
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createItem } from '../../src/inventory/items.js';
import { createLab } from '../../src/labs/service.js';
import { loadConfig } from '../../src/shared/config.js';
import type { ServiceDeps } from '../../src/shared/deps.js';
import { CLI, cliEnv, cliFailure, cliJson } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { type OrgFixture, seedOrganization } from '../helpers/fixtures.js';
import { TEST_ENV } from '../helpers/harness.js';
import { bulkChanges, expectBulkMigrated, seedBulkLegacyLab, UPDATED } from '../helpers/lab-migration.js';

const run = promisify(execFile);
let database: TestDatabase;
let env: NodeJS.ProcessEnv;
let deps: ServiceDeps;
let org: OrgFixture;

/** Without --json (human output), for the commands that must succeed. */
async function cli(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(process.execPath, [CLI, ...args], { env });
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string; message: string };
    throw new Error(`labstock ${args.join(' ')} failed: ${e.message}\nstdout: ${e.stdout ?? ''}\nstderr: ${e.stderr ?? ''}`);
  }
}
const json = (...args: string[]) => cliJson(env, ...args);
const cliFails = (...args: string[]) => cliFailure(env, ...args);

const labRow = (id: string) => deps.db.selectFrom('labs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const eventCount = async (labId: string) => (await deps.db.selectFrom('events').select('id').where('lab_id', '=', labId).execute()).length;
const updatedEvents = (labId: string) =>
  deps.db.selectFrom('events').select(['type', 'payload']).where('lab_id', '=', labId).where('type', '=', UPDATED).execute();

beforeAll(async () => {
  database = await createTestDatabase();
  env = cliEnv(database);
  deps = { db: database.handle.db, config: loadConfig({ ...TEST_ENV, DATABASE_URL: database.url }) };
  org = await seedOrganization(deps, 'A');
});
afterAll(async () => {
  await database?.drop();
});

describe('labstock admin lab migrate', () => {
  it('migrates a legacy lab and prints its progress as JSON; a second run changes nothing', async () => {
    const lab = await createLab(deps.db, org.admin.actor, { organizationId: org.orgId, name: 'CLI legacy lab' });
    const a = await createItem(deps, org.admin.actor, {
      labId: lab.id,
      name: 'Acetone',
      quantity: '4',
      lotNumber: 'A-1',
      locationName: 'Cabinet',
      sublocationName: 'Top',
    });
    const b = await createItem(deps, org.admin.actor, { labId: lab.id, name: 'Buffer', quantity: '0' });
    const result = await json('admin', 'lab', 'migrate', '--lab', lab.id);
    expect(result).toEqual({
      lab_id: lab.id,
      status: 'done',
      items_total: 2,
      items_migrated: 2,
      started_at: expect.any(String),
      updated_at: expect.any(String),
      finished_at: expect.any(String),
    });
    expect((await labRow(lab.id)).uses_instances).toBe(1);
    const instances = await deps.db.selectFrom('inventory_item_instances').selectAll().where('item_id', 'in', [a.id, b.id]).execute();
    expect(instances.map((i) => [i.item_id, i.quantity, i.lot_number])).toEqual([[a.id, '4', 'A-1']]);
    // The two items' creation events, and one update: Buffer ("0" and nothing else) needs no change and is not announced.
    expect(await eventCount(lab.id)).toBe(3);
    const events = await updatedEvents(lab.id);
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.payload).data.inventory_item).toMatchObject({
      id: a.id,
      quantity: '4',
      lot_number: null,
      location: null,
      sublocation: null,
      lab: { id: lab.id, uses_instances: true },
      instances: [{ quantity: '4', lot_number: 'A-1', location: { name: 'Top', pathNames: ['Cabinet', 'Top'] } }],
    });
    // The history of a CLI migration names nobody: there is no user behind `labstock admin`.
    const history = await deps.db
      .selectFrom('inventory_item_changes')
      .selectAll()
      .where('item_id', '=', a.id)
      .where('field', '=', 'migrated_to_instances')
      .execute();
    expect(history).toHaveLength(1);
    expect(history[0]!.user_id).toBe('');

    expect(await json('admin', 'lab', 'migrate', '--lab', lab.id)).toEqual(result);
    expect(await eventCount(lab.id)).toBe(3);
    expect(await deps.db.selectFrom('inventory_item_instances').select('id').where('item_id', 'in', [a.id, b.id]).execute()).toHaveLength(
      1,
    );
  });

  it('prints one human line without --json, and no progress bar when stderr is not a terminal', async () => {
    const { stdout, stderr } = await cli('admin', 'lab', 'migrate', '--lab', org.migratedLab.id);
    expect(stdout.trim()).toBe(`lab ${org.migratedLab.id} uses instances: 0 of 0 items migrated (it was created with instances)`);
    expect(stderr).toBe('');
    const lab = await createLab(deps.db, org.admin.actor, { organizationId: org.orgId, name: 'CLI human lab' });
    expect((await cli('admin', 'lab', 'migrate', '--lab', lab.id)).stdout).toMatch(
      new RegExp(`^lab ${lab.id} uses instances: 0 of 0 items migrated, finished \\d{4}-`),
    );
  });

  it.skipIf(!existsSync('/usr/bin/script'))('shows a progress bar on a terminal', async () => {
    const labId = await seedBulkLegacyLab(deps.db, org.orgId, org.admin.id, 2000, 'CLI terminal lab');
    // util-linux `script` gives the command a pseudo-terminal; what it printed comes back on stdout.
    const command = [process.execPath, CLI, 'admin', 'lab', 'migrate', '--lab', labId, '--batch-size', '100']
      .map((a) => `'${a}'`)
      .join(' ');
    const { stdout } = await run('/usr/bin/script', ['-qec', command, '/dev/null'], { env });
    expect(stdout).toMatch(/migrating \[[^\]]*\] \d+% \d+\/2000 items/);
    expect(stdout).toContain('100% 2000/2000 items');
    expect(stdout).toContain(`lab ${labId} uses instances: 2000 of 2000 items migrated`);
    expect((await labRow(labId)).uses_instances).toBe(1);
  });

  it('fails with a clear message and exit code 1', async () => {
    expect(await cliFails('admin', 'lab', 'migrate', '--lab', '00000000-0000-7000-8000-000000000000')).toMatch(/lab not found/);
    expect(await cliFails('admin', 'lab', 'migrate', '--lab', 'not-a-lab')).toMatch(/lab not found/);
    expect(await cliFails('admin', 'lab', 'migrate', '--lab', org.legacyLab.id, '--batch-size', '0')).toMatch(
      /--batch-size: must be an integer from 1 to 5000/,
    );
    expect(await cliFails('admin', 'lab', 'migrate')).toMatch(/--lab/);
    // None of these started anything.
    expect((await labRow(org.legacyLab.id)).migration_started_at).toBeNull();
  });
});

describe('a migration killed with SIGKILL mid-way', () => {
  const N = 20_000;
  const BATCH = 250;

  it('leaves only whole batches behind, and a rerun finishes with one instance and one event per changed item', async () => {
    const labId = await seedBulkLegacyLab(deps.db, org.orgId, org.admin.id, N, 'CLI crash lab');
    const child = spawn(process.execPath, [CLI, 'admin', 'lab', 'migrate', '--lab', labId, '--batch-size', String(BATCH), '--json'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );

    // Kill it once about a tenth of the lab is committed, while it is busy with the next batches.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const lab = await labRow(labId);
      if ((lab.migration_items_done ?? 0) >= N / 10) break;
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`the migration ended or stalled before the kill: ${JSON.stringify(lab)}\n${output}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    child.kill('SIGKILL');
    expect((await exited).signal).toBe('SIGKILL');

    // What the dead process left: a running migration whose cursor stands after its last committed batch; exactly
    // the items before the cursor converted, each with one instance and one event; the rest untouched.
    const lab = await labRow(labId);
    expect(lab.uses_instances).toBe(0);
    expect(lab.migration_finished_at).toBeNull();
    const k = lab.migration_items_done!;
    expect(k, `killed after ${k} of ${N}`).toBeGreaterThan(0);
    expect(k).toBeLessThan(N);
    expect(k % BATCH).toBe(0);
    const expected = Array.from({ length: k }, (_, i) => i)
      .filter(bulkChanges)
      .map((i) => `Bulk item ${i}`)
      .sort();
    const converted = await deps.db
      .selectFrom('inventory_items')
      .select('name')
      .where('lab_id', '=', labId)
      .where('version', '=', 2)
      .execute();
    expect(converted.map((r) => r.name).sort()).toEqual(expected);
    const instances = await deps.db
      .selectFrom('inventory_item_instances')
      .innerJoin('inventory_items', 'inventory_items.id', 'inventory_item_instances.item_id')
      .select('inventory_items.name')
      .where('inventory_items.lab_id', '=', labId)
      .execute();
    expect(instances.map((r) => r.name).sort()).toEqual(expected);
    const events = await deps.db.selectFrom('events').select('payload').where('lab_id', '=', labId).execute();
    expect(events.map((e) => JSON.parse(e.payload).data.inventory_item.name).sort()).toEqual(expected);
    const untouched = await deps.db
      .selectFrom('inventory_items')
      .select(['name', 'quantity', 'version'])
      .where('lab_id', '=', labId)
      .where('version', '=', 1)
      .execute();
    expect(
      untouched.filter((r) => Number(r.name.slice('Bulk item '.length)) < k && bulkChanges(Number(r.name.slice('Bulk item '.length)))),
    ).toEqual([]);

    // The rerun resumes at the cursor and finishes.
    const result = await json('admin', 'lab', 'migrate', '--lab', labId, '--batch-size', String(BATCH));
    expect(result).toMatchObject({
      lab_id: labId,
      status: 'done',
      items_total: N,
      items_migrated: N,
      started_at: lab.migration_started_at,
    });
    await expectBulkMigrated(deps.db, labId, N);
  }, 120_000);
});
