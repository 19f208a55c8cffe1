// `labstock admin inventory export|import` through the real binary (dist/, `npm run build` first) on the test's own
// database: the files, the dry run's report, a refused file changing nothing, and clear failures.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLab } from '../../src/labs/service.js';
import { loadConfig } from '../../src/shared/config.js';
import type { ServiceDeps } from '../../src/shared/deps.js';
import { createType } from '../../src/types/service.js';
import { cliEnv, cliFailure, cliJson } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { type OrgFixture, seedOrganization } from '../helpers/fixtures.js';
import { TEST_ENV } from '../helpers/harness.js';

let database: TestDatabase;
let env: NodeJS.ProcessEnv;
let deps: ServiceDeps;
let org: OrgFixture;
let dir: string;

const cli = (...args: string[]) => cliJson(env, ...args);
const cliFails = (...args: string[]) => cliFailure(env, ...args);
const counts = async () => ({
  items: (await deps.db.selectFrom('inventory_items').select('id').execute()).length,
  events: (await deps.db.selectFrom('events').select('id').execute()).length,
  locations: (await deps.db.selectFrom('locations').select('id').execute()).length,
});

beforeAll(async () => {
  database = await createTestDatabase();
  env = cliEnv(database);
  deps = { db: database.handle.db, config: loadConfig({ ...TEST_ENV, DATABASE_URL: database.url }) };
  org = await seedOrganization(deps, 'A');
  dir = await mkdtemp(path.join(tmpdir(), 'labstock-inventory-'));
});
afterAll(async () => {
  await database?.drop();
});

describe('labstock admin inventory', () => {
  it('exports a lab to a file, and imports it (ids cleared) into another lab: dry run first, then for real', async () => {
    const out = path.join(dir, 'export.csv');
    expect(await cli('admin', 'inventory', 'export', '--lab', org.migratedLab.id, '--file', out)).toMatchObject({
      lab_id: org.migratedLab.id,
      items: 1,
    });
    const text = await readFile(out, 'utf8');
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r.name, r.quantity, r.location])).toEqual([
      ['Anti-GFP A', '0.1', 'Room 101 / Freezer A / Shelf 2'],
      ['Anti-GFP A', '0.2', ''],
    ]);

    const copy = path.join(dir, 'copy.csv');
    await writeFile(copy, text.replace(/^item_id,instance_id,/, '').replace(/\r\n[0-9a-f-]{36},[0-9a-f-]{36},/g, '\r\n'));
    const target = await createLab(deps.db, org.admin.actor, { organizationId: org.orgId, name: 'CLI target', usesInstances: true });
    await createType(deps, org.admin.actor, { labId: target.id, name: 'Antibody' });
    const before = await counts();
    const dry = await cli('admin', 'inventory', 'import', '--lab', target.id, '--file', copy, '--dry-run');
    expect(dry).toMatchObject({ dry_run: true, rows: 2, items: 1, instances: 2, locations_created: 3 });
    expect(await counts()).toEqual(before);
    const done = await cli('admin', 'inventory', 'import', '--lab', target.id, '--file', copy, '--user', org.member.id);
    expect(done).toEqual({ dry_run: false, rows: 2, items: 1, instances: 2, locations_created: 3, error_count: 0, errors: [] });
    const after = await counts();
    expect(after).toEqual({ items: before.items + 1, events: before.events + 1, locations: before.locations + 3 });
  });

  it('a file with a bad row: the dry run lists it and exits 1, the real run changes nothing', async () => {
    const bad = path.join(dir, 'bad.csv');
    await writeFile(bad, 'name,quantity\nGood,1\nBad,lots\n');
    const before = await counts();
    const dry = await cliFails('admin', 'inventory', 'import', '--lab', org.legacyLab.id, '--file', bad, '--dry-run');
    expect(dry).toBe('');
    const stderr = await cliFails('admin', 'inventory', 'import', '--lab', org.legacyLab.id, '--file', bad, '--user', org.admin.id);
    expect(stderr).toContain('line 3, quantity');
    expect(stderr).toContain('nothing was imported');
    const asJson = await cliFails(
      'admin',
      'inventory',
      'import',
      '--lab',
      org.legacyLab.id,
      '--file',
      bad,
      '--user',
      org.admin.id,
      '--json',
    );
    expect(JSON.parse(asJson).error.code).toBe('validation_failed');
    expect(await counts()).toEqual(before);
  });

  it('clear failures: no --user for a real run, an unknown user, lab or file', async () => {
    const good = path.join(dir, 'good.csv');
    await writeFile(good, 'name\nX\n');
    expect(await cliFails('admin', 'inventory', 'import', '--lab', org.legacyLab.id, '--file', good)).toContain('--user is required');
    expect(await cliFails('admin', 'inventory', 'import', '--lab', org.legacyLab.id, '--file', good, '--user', 'nobody')).toContain(
      'no user',
    );
    expect(await cliFails('admin', 'inventory', 'export', '--lab', '0190b1d2-0000-7000-8000-000000000000', '--file', good)).toContain(
      'lab not found',
    );
    expect(
      await cliFails('admin', 'inventory', 'import', '--lab', org.legacyLab.id, '--file', path.join(dir, 'missing.csv'), '--dry-run'),
    ).toContain('cannot read');
  });

  it("--user must be an active member of the lab's organization: another organization's user adds nothing", async () => {
    const other = await seedOrganization(deps, 'B');
    const good = path.join(dir, 'member.csv');
    await writeFile(good, 'name\nY\n');
    const before = await counts();
    const args = ['admin', 'inventory', 'import', '--lab', org.legacyLab.id, '--file', good];
    expect(await cliFails(...args, '--user', other.admin.id)).toContain("not an active member of the lab's organization");
    expect(await cliFails(...args, '--user', other.admin.id, '--dry-run')).toContain('not an active member');
    expect(await cliFails('admin', 'inventory', 'import', '--lab', other.legacyLab.id, '--file', good, '--user', org.admin.id)).toContain(
      'not an active member',
    );
    expect(await counts()).toEqual(before);
  });
});
