// `npm run build && node bench/labels.mjs [--labels 300] [--runs 7]`: how long a label PDF of N containers takes
// (issue 25, target: 300 labels in < 2 s), for each layout, and the ZPL of the same. Seeds a fresh SQLite file with
// N containers on a few locations through the CSV import (so each has its code), then, per run, does what
// POST /labels does after authentication: select the labels the caller sees (src/labels/service.ts) and render them
// (src/labels/pdf.ts, src/labels/zpl.ts). Prints one JSON line per layout with the median and the slowest run, and
// the median CPU time of a run (the process's own, which other work on a busy machine inflates less than the clock).
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values: opt } = parseArgs({ options: { labels: { type: 'string', default: '300' }, runs: { type: 'string', default: '7' } } });
const n = Number(opt.labels);
const runs = Number(opt.runs);

const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'labstock-labels-')), 'bench.sqlite');
const { loadConfig } = await import('../dist/shared/config.js');
const { openDatabase, migrateToLatest } = await import('../dist/shared/db/database.js');
const { createOrganization, createUser } = await import('../dist/accounts/service.js');
const { createLab } = await import('../dist/labs/service.js');
const { importLabInventory } = await import('../dist/inventory/csv/import.js');
const { systemActor } = await import('../dist/shared/actor.js');
const { selectLabels } = await import('../dist/labels/service.js');
const { LAYOUTS } = await import('../dist/labels/layouts.js');
const { renderLabelsPdf } = await import('../dist/labels/pdf.js');
const { renderLabelsZpl } = await import('../dist/labels/zpl.js');
const { labelUrl } = await import('../dist/labels/routes.js');

const system = systemActor('cli');
const config = loadConfig({ DATABASE_URL: file, LOG_LEVEL: 'silent', APP_URL: 'https://labstock.example.org' });
const handle = openDatabase(config.database);
await migrateToLatest(handle.db);
const org = await createOrganization(handle.db, system, { name: 'Bench' });
const user = await createUser(handle.db, system, {
  organizationId: org.id,
  email: 'bench@example.org',
  firstName: 'B',
  lastName: 'E',
  role: 'admin',
});
const lab = await createLab(handle.db, system, { organizationId: org.id, name: 'Protein Chemistry Lab', usesInstances: true });
// The Actor built here at the edge, as the CLI does.
const admin = { tokenId: 'bench', userId: user.id, organizationId: org.id, role: 'admin' };
const lines = ['name,quantity,lot_number,expiration_date,location'];
for (let i = 0; i < n; i++)
  lines.push(
    `Reagent ${i} for the bench,${(i % 50) + 1},LOT-${i},2027-0${(i % 9) + 1}-15,Building A / Room ${i % 4} / Freezer ${i % 6} / Shelf ${i % 5}`,
  );
await importLabInventory({ db: handle.db, config }, admin, lab.id, lines.join('\n'), { dryRun: false });
const ids = (await handle.db.selectFrom('inventory_item_instances').select('id').execute()).map((r) => r.id);
if (ids.length !== n) throw new Error(`seeded ${ids.length} containers, not ${n}`);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function measure(format, layout) {
  const times = [];
  const cpu = [];
  let bytes = 0;
  for (let r = 0; r < runs; r++) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const views = (await selectLabels(handle.db, admin, { instance_ids: ids })).map((v) => ({
      ...v,
      label_url: labelUrl(config.appUrl, v.code),
    }));
    const out = format === 'pdf' ? await renderLabelsPdf(LAYOUTS[layout], views) : renderLabelsZpl(LAYOUTS[layout], views);
    times.push(performance.now() - started);
    const used = process.cpuUsage(cpuStarted);
    cpu.push((used.user + used.system) / 1000);
    bytes = typeof out === 'string' ? Buffer.byteLength(out) : out.byteLength;
  }
  return {
    format,
    layout,
    labels: n,
    runs,
    median_ms: Math.round(median(times)),
    max_ms: Math.round(Math.max(...times)),
    cpu_median_ms: Math.round(median(cpu)),
    bytes,
  };
}

const load = os
  .loadavg()
  .map((x) => x.toFixed(2))
  .join(' ');
for (const [format, layout] of [
  ['pdf', 'sheet-30'],
  ['pdf', 'roll-2x1'],
  ['pdf', 'cryo'],
  ['zpl', 'roll-2x1'],
]) {
  const result = await measure(format, layout);
  console.log(JSON.stringify({ ...result, target_ms: 2000, met: result.median_ms < 2000, loadavg: load, cpus: os.cpus().length }));
}
await handle.close();
