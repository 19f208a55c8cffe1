// `npm run build && node bench/export.mjs [--rows N]`: the CSV export of one lab with N instance rows (issue 12,
// target ≥ 50,000 rows/s in < 300 MB). Seeds a fresh SQLite file through the import (100,000 rows a transaction),
// then exports it in a child process that does nothing else, and prints rows/s and that process's peak RSS.
// With DATABASE_URL=postgres://… the child's export reads PostgreSQL instead (seeded into a fresh schema).
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values: opt } = parseArgs({
  options: { rows: { type: 'string', default: '1000000' }, measure: { type: 'string' }, lab: { type: 'string' } },
});

if (opt.measure) {
  // The child: export the lab to nowhere, count rows and bytes.
  const { loadConfig } = await import('../dist/shared/config.js');
  const { openDatabase } = await import('../dist/shared/db/database.js');
  const { exportLabInventory } = await import('../dist/inventory/csv/export.js');
  const { systemActor } = await import('../dist/shared/actor.js');
  const config = loadConfig({ DATABASE_URL: opt.measure, LOG_LEVEL: 'silent' });
  const handle = openDatabase(config.database);
  const started = performance.now();
  const exp = await exportLabInventory({ db: handle.db, config }, systemActor('cli'), opt.lab);
  let rows = -1;
  let bytes = 0;
  for await (const chunk of exp.chunks) {
    bytes += Buffer.byteLength(chunk);
    for (let i = chunk.indexOf('\r\n'); i !== -1; i = chunk.indexOf('\r\n', i + 2)) rows++;
  }
  const seconds = (performance.now() - started) / 1000;
  await handle.close();
  const cpu = process.cpuUsage();
  console.log(
    JSON.stringify({
      rows,
      bytes,
      seconds,
      rows_per_s: Math.round(rows / seconds),
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      cpu_s: (cpu.user + cpu.system) / 1e6,
    }),
  );
  process.exit(0);
}

const rows = Number(opt.rows);
const file = path.join(mkdtempSync(path.join(tmpdir(), 'labstock-export-')), 'bench.sqlite');
const { loadConfig } = await import('../dist/shared/config.js');
const { openDatabase, migrateToLatest } = await import('../dist/shared/db/database.js');
const { createOrganization, createUser } = await import('../dist/accounts/service.js');
const { createLab } = await import('../dist/labs/service.js');
const { importLabInventory } = await import('../dist/inventory/csv/import.js');
const { systemActor } = await import('../dist/shared/actor.js');
const system = systemActor('cli');
const config = loadConfig({ DATABASE_URL: file, LOG_LEVEL: 'silent' });
const handle = openDatabase(config.database);
await migrateToLatest(handle.db);
const deps = { db: handle.db, config };
const org = await createOrganization(handle.db, system, { name: 'Bench' });
const user = await createUser(handle.db, system, {
  organizationId: org.id,
  email: 'bench@example.org',
  firstName: 'B',
  lastName: 'E',
  role: 'admin',
});
const lab = await createLab(handle.db, system, { organizationId: org.id, name: 'Bench lab', usesInstances: true });
// The import runs as the organization's admin, an Actor built here at the edge as the CLI does.
const admin = { tokenId: 'bench', userId: user.id, organizationId: org.id, role: 'admin' };
const seedStart = performance.now();
for (let done = 0; done < rows; ) {
  const n = Math.min(100_000, rows - done);
  const lines = ['name,vendor,catalog_number,cas_number,unit_size,price,quantity,lot_number,expiration_date,location,technical_details'];
  for (let i = done; i < done + n; i++) {
    const item = Math.floor(i / 2); // two instances per item
    lines.push(
      `Reagent ${item},Vendor ${item % 200},CAT-${item},${item % 1000}-00-0,500 mL,${(item % 500) + 0.99},${(i % 50) + 1},LOT-${i},2027-0${(i % 9) + 1}-15,Room ${item % 4} / Freezer ${item % 6} / Shelf ${item % 5},"Store at -20 °C, keep dry"`,
    );
  }
  await importLabInventory(deps, admin, lab.id, lines.join('\n'), { dryRun: false });
  done += n;
  process.stderr.write(`seeded ${done}/${rows} rows (${((performance.now() - seedStart) / 1000).toFixed(0)} s)\n`);
}
await handle.close();
const child = spawnSync(process.execPath, [new URL(import.meta.url).pathname, '--measure', file, '--lab', lab.id], { encoding: 'utf8' });
if (child.status !== 0) throw new Error(child.stderr);
const result = JSON.parse(child.stdout);
const load = (await import('node:os'))
  .loadavg()
  .map((x) => x.toFixed(2))
  .join(' ');
console.log(JSON.stringify({ database: 'sqlite', ...result, loadavg: load, cpus: (await import('node:os')).cpus().length }));
