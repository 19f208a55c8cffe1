// `npm run bench -- --control-area` (or `node bench/control-area.mjs` after a build): issue 26's bench, the
// control-area meter and the limit check at 1,000,000 active instances (docs/performance.md, "Control-area meter
// at 1,000,000 instances").
//
// One lab whose location tree is a building > rooms > cabinets > shelves, `--instances` active containers (plus
// some archived ones) spread over the shelves, three cabinets marked control areas holding ~`--area` containers
// each, the items stored there carrying GHS hazard statements. The rows are written in bulk straight into the
// tables (the bench is not the app); the organization, admin, lab and token come from the services, the control
// areas are marked through the API. Then, over real HTTP, one request at a time (latency, not throughput):
//   meter:  GET /locations/{flammables cabinet}/control-area/meter
//   check:  POST /placement-checks of a container moved into a shelf of that cabinet
// and prints p50/p99 against the target (5 ms p99): "met" or "MISSED".
//
//   node bench/control-area.mjs --instances 1000000 --requests 2000
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/control-area.mjs
//   BENCH_PROFILE_DIR=/tmp/prof node bench/control-area.mjs …   # the server under node --cpu-prof
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { v7 as uuid } from 'uuid';
import { bulkWriter, freshDatabase } from './lib/dataset.mjs';
import { fmt, summarize, table } from './lib/stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'dist', 'cli', 'main.js');
const { values: opt } = parseArgs({
  options: {
    instances: { type: 'string', default: '1000000' },
    area: { type: 'string', default: '10000' },
    requests: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '2' },
    'keep-db': { type: 'boolean', default: false },
    out: { type: 'string', default: path.join(root, 'bench', 'results') },
  },
  allowPositionals: true,
});
const INSTANCES = Number(opt.instances);
const AREA = Number(opt.area);
const REQUESTS = Number(opt.requests);
const WARMUP = Number(opt.warmup);
const ROUNDS = Number(opt.rounds);
const TARGET_P99_MS = 5;
const APP_URL = 'http://127.0.0.1:8080';

const t0 = performance.now();
const progress = (phase, m) => console.log(`[${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${phase}: ${m}`);

// A seeded generator: the same rows on every run.
let seed = 26;
const random = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (xs) => xs[Math.floor(random() * xs.length)];

// What the three control-area cabinets hold (GHS statements, unit sizes), and everything else in the lab.
const AREAS = [
  {
    name: 'Flammables cabinet',
    codes: [['H225', 'H319', 'H336'], ['H225', 'H301', 'H311', 'H331'], ['H226'], ['H224', 'H336'], ['H225', 'H304', 'H315']],
    units: ['1 L', '500 mL', '2.5 L', '100 mL', '4 L', '1 L', '500 mL', '250 mL', '100 mL', '50 mL'],
  },
  {
    name: 'Corrosives cabinet',
    codes: [
      ['H314', 'H290'],
      ['H314', 'H335'],
      ['H302', 'H314'],
    ],
    units: ['1 L', '500 mL', '2.5 L', '500 g', '1 kg'],
  },
  { name: 'Oxidizers cabinet', codes: [['H271', 'H302', 'H318'], ['H272'], ['H272', 'H314']], units: ['500 g', '1 kg', '500 mL', '1 L'] },
];
const OTHER_CODES = [['H302'], ['H315', 'H319'], ['H225', 'H319'], ['H341'], []];
const OTHER_UNITS = ['1 L', '500 mL', '100 mL', '25 g', '100 g', '1 kg', '100 µg', '50 µL', '500 units', '10 x 1 mL'];
const NAMES = [
  'Ethanol',
  'Acetone',
  'Methanol',
  'Hexane',
  'Toluene',
  'Hydrochloric acid',
  'Sodium hydroxide',
  'Hydrogen peroxide',
  'Sodium chloride',
  'Tris base',
  'Glycine',
  'DMSO',
  'EDTA',
  'Agarose',
  'BSA',
];

async function setup(db) {
  const { createOrganization, createToken, createUser } = await import('../dist/accounts/service.js');
  const { createLab } = await import('../dist/labs/service.js');
  const { systemActor } = await import('../dist/shared/actor.js');
  const { loadConfig } = await import('../dist/shared/config.js');
  const { migrateToLatest, openDatabase } = await import('../dist/shared/db/database.js');
  const { nameSortKey } = await import('../dist/shared/search-text.js');
  const { typeNameKey } = await import('../dist/types/repository.js');
  const { rebuildDocuments } = await import('../dist/inventory/stored/rebuild.js');
  const { rebuildHoldings } = await import('../dist/hazards/holdings-repository.js');
  const config = loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent' });
  const handle = openDatabase(config.database);
  await migrateToLatest(handle.db);
  const system = systemActor('cli');
  const org = await createOrganization(handle.db, system, { name: 'Bench Chemistry' });
  const admin = await createUser(handle.db, system, {
    organizationId: org.id,
    email: 'meter@example.org',
    firstName: 'Ada',
    lastName: 'Meter',
    role: 'admin',
  });
  const lab = await createLab(handle.db, system, { organizationId: org.id, name: 'Organic chemistry', usesInstances: true });
  const token = await createToken(handle.db, system, { userId: admin.id, organizationId: org.id, name: 'meter bench' });
  await handle.close();

  const w = await bulkWriter(db);
  const at = new Date(Date.now() - 86_400_000).toISOString();
  const typeIds = ['Solvent', 'Acid or base', 'Oxidizer', 'Reagent', 'Buffer'].map((name) => ({ id: uuid(), name }));
  await w.insert(
    'types',
    ['id', 'lab_id', 'name', 'name_key', 'created_at', 'updated_at'],
    typeIds.map((t) => [t.id, lab.id, t.name, typeNameKey(t.name), at, at]),
  );
  // Building > 10 rooms > 10 cabinets > 10 shelves: 1,111 locations; cabinet 1 of rooms 1-3 are the control areas.
  const locations = [];
  const shelves = [];
  const building = uuid();
  locations.push([building, lab.id, null, 'Chemistry building', at]);
  const areas = [];
  for (let r = 0; r < 10; r++) {
    const room = uuid();
    locations.push([room, lab.id, building, `Room ${101 + r}`, at]);
    for (let c = 0; c < 10; c++) {
      const cabinet = uuid();
      const area = c === 0 && r < AREAS.length ? { ...AREAS[r], id: cabinet, shelves: [] } : null;
      if (area) areas.push(area);
      locations.push([cabinet, lab.id, room, area ? area.name : `Cabinet ${c + 1}`, at]);
      for (let s = 0; s < 10; s++) {
        const shelf = uuid();
        locations.push([shelf, lab.id, cabinet, `Shelf ${s + 1}`, at]);
        (area ? area.shelves : shelves).push(shelf);
      }
    }
  }
  await w.insert('locations', ['id', 'lab_id', 'parent_id', 'name', 'created_at'], locations);

  // Items of 5 containers each (a fifth also have an archived one); an area's items live on its shelves.
  const PER_ITEM = 5;
  const itemCount = Math.ceil(INSTANCES / PER_ITEM);
  const areaItems = Math.ceil(AREA / PER_ITEM);
  const ITEM_COLS = [
    'id',
    'lab_id',
    'type_id',
    'name',
    'vendor',
    'unit_size',
    'quantity',
    'added_by',
    'updated_by',
    'version',
    'created_at',
    'updated_at',
    'below_minimum',
    'name_key',
  ];
  const INSTANCE_COLS = ['id', 'item_id', 'quantity', 'location_id', 'archived_at', 'created_at', 'updated_at'];
  const samples = { outside: [], flammables: [] };
  let active = 0;
  let written = 0;
  const BATCH = 5000;
  for (let from = 0; from < itemCount; from += BATCH) {
    const items = [];
    const instances = [];
    const sets = [];
    const codes = [];
    for (let g = from; g < Math.min(itemCount, from + BATCH); g++) {
      const area = g < areaItems * areas.length ? areas[Math.floor(g / areaItems)] : null;
      const id = uuid();
      const name = `${pick(NAMES)} ${1 + (g % 997)}`;
      const type = area ? typeIds[areas.indexOf(area)] : pick(typeIds.slice(3));
      items.push([
        id,
        lab.id,
        type.id,
        name,
        'Sigma-Aldrich',
        area ? pick(area.units) : pick(OTHER_UNITS),
        '0',
        admin.id,
        admin.id,
        1,
        at,
        at,
        0,
        nameSortKey(name),
      ]);
      const itemCodes = area ? pick(area.codes) : random() < 0.2 ? pick(OTHER_CODES) : null;
      if (itemCodes) {
        const setId = uuid();
        sets.push([setId, lab.id, id, null, admin.id, at]);
        for (const code of itemCodes) codes.push([setId, code]);
      }
      const home = area ? pick(area.shelves) : pick(shelves);
      // One item in fifty has a unit size nobody can parse: the meter lists its containers, never guesses.
      if (random() < 0.02) items[items.length - 1][5] = '1 box';
      const n = PER_ITEM + (random() < 0.2 ? 1 : 0);
      for (let k = 0; k < n && active < INSTANCES; k++) {
        const archived = k === PER_ITEM;
        const instanceId = uuid();
        instances.push([
          instanceId,
          id,
          String(1 + Math.floor(random() * 3)),
          area ? home : random() < 0.9 ? home : pick(shelves),
          archived ? at : null,
          at,
          at,
        ]);
        if (archived) continue;
        active++;
        if (area === areas[0] && samples.flammables.length < 200) samples.flammables.push({ itemId: id, instanceId });
        if (!area && itemCodes?.includes('H225') && samples.outside.length < 200) samples.outside.push({ itemId: id, instanceId });
      }
    }
    await w.insert('inventory_items', ITEM_COLS, items);
    await w.insert('inventory_item_instances', INSTANCE_COLS, instances);
    await w.insert('hazard_sets', ['id', 'lab_id', 'item_id', 'type_id', 'updated_by', 'updated_at'], sets);
    await w.insert('hazard_set_codes', ['set_id', 'code'], codes);
    written += instances.length;
    if ((from / BATCH) % 20 === 0) progress('dataset', `${active.toLocaleString('en-US')} active instances`);
  }
  await w.finish();
  progress(
    'dataset',
    `${itemCount.toLocaleString('en-US')} items, ${active.toLocaleString('en-US')} active instances (${written.toLocaleString('en-US')} with archived ones), ${locations.length} locations`,
  );
  const rebuilt = openDatabase(config.database);
  const { written: docs } = await rebuildDocuments(rebuilt.db, system, APP_URL, {});
  // The rows were written past the services: the control-area totals are computed from them, as `labstock admin
  // rebuild` does after a bulk load.
  const holdings = await rebuilt.db.transaction().execute((trx) => rebuildHoldings(trx));
  await rebuilt.close();
  progress('dataset', `${docs.toLocaleString('en-US')} stored item documents written, ${holdings} holdings`);
  return {
    token: token.token,
    labId: lab.id,
    areas,
    samples,
    counts: { items: itemCount, active, rows: written, locations: locations.length },
  };
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function startServer(databaseUrl, logFile) {
  const port = await freePort();
  const log = fs.openSync(logFile, 'a');
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    PORT: String(port),
    APP_URL,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '0',
  };
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_PROFILE_DIR] : []), cli, 'serve'],
    { stdio: ['ignore', log, log], env },
  );
  const origin = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 60_000; ; ) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${fs.readFileSync(logFile, 'utf8').slice(-4000)}`);
    try {
      const res = await request(`${origin}/healthz`);
      await res.body.dump();
      if (res.statusCode === 200) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error('the server did not answer /healthz within 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return { origin, child };
}

const cpuMs = (pid) => {
  const f = fs
    .readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};

/**
 * Waits until the server has settled after its start (its first pass over the stored documents, the worker's
 * first jobs: seconds of CPU at 1,000,000 instances): until it uses < 5 % of a core for a second, at most 120 s.
 */
async function settled(pid) {
  const start = performance.now();
  for (let i = 0; i < 120; i++) {
    const before = cpuMs(pid);
    await new Promise((r) => setTimeout(r, 1000));
    if (cpuMs(pid) - before < 50) break;
  }
  return (performance.now() - start) / 1000;
}

/** `count` requests one after the other (one connection), after `warmup` of the same; client-side latency. */
async function measure(server, headers, next, count, warmup) {
  const agent = new Agent({ connections: 1 });
  const one = async () => {
    const r = next();
    // A write before the request, not timed (the area changed since the last meter or check).
    if (r.before) {
      const res = await request(`${server.origin}${r.before.path}`, {
        dispatcher: agent,
        method: r.before.method,
        headers: { ...headers, 'content-type': 'application/json' },
        body: r.before.body,
      });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`${r.before.method} ${r.before.path} answered ${res.statusCode}: ${text.slice(0, 400)}`);
    }
    const start = performance.now();
    const res = await request(`${server.origin}${r.path}`, {
      dispatcher: agent,
      method: r.method,
      headers: { ...headers, ...(r.body ? { 'content-type': 'application/json' } : {}) },
      body: r.body,
    });
    const text = await res.body.text();
    const ms = performance.now() - start;
    if (res.statusCode !== 200) throw new Error(`${r.method} ${r.path} answered ${res.statusCode}: ${text.slice(0, 400)}`);
    return { ms, text };
  };
  for (let i = 0; i < warmup; i++) await one();
  const cpu0 = cpuMs(server.child.pid);
  const times = [];
  let sample = null;
  for (let i = 0; i < count; i++) {
    const { ms, text } = await one();
    times.push(ms);
    sample ??= JSON.parse(text);
  }
  const cpuUs = ((cpuMs(server.child.pid) - cpu0) * 1000) / count;
  await agent.close();
  return { ...summarize(times), cpuUsPerRequest: cpuUs, sample };
}

async function main() {
  const loadStart = os.loadavg();
  progress(
    'machine',
    `${os.availableParallelism()} cores, Node ${process.version}, load average ${loadStart.map((x) => x.toFixed(2)).join(' ')}`,
  );
  const db = await freshDatabase(process.env.DATABASE_URL);
  progress('database', db.label);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'labstock-meter-'));
  let server = null;
  const cleanup = async () => {
    if (server && server.child.exitCode === null) {
      const gone = new Promise((r) => server.child.once('exit', r));
      server.child.kill('SIGTERM');
      await gone;
    }
    if (!opt['keep-db']) await db.drop();
    else progress('database', `kept: ${db.url}`);
  };
  process.once('SIGINT', () => cleanup().then(() => process.exit(130)));
  try {
    const tSetup = performance.now();
    const data = await setup(db);
    const setupSeconds = (performance.now() - tSetup) / 1000;
    progress('dataset', `ready in ${setupSeconds.toFixed(1)} s`);
    // The bulk load leaves a gigabyte of dirty pages that the kernel writes back for a minute: flushed first, so
    // that the timings are of the requests, not of the disk catching up.
    execFileSync('sync');
    server = await startServer(db.url, path.join(tmp, 'server.log'));
    const headers = { 'access-token': data.token };
    for (const a of data.areas) {
      const res = await request(`${server.origin}/locations/${a.id}/control-area`, {
        method: 'PUT',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ sprinklered: true, cabinets: false, limits: [] }),
      });
      if (res.statusCode !== 200) throw new Error(`marking ${a.name}: ${res.statusCode} ${await res.body.text()}`);
      await res.body.dump();
    }
    progress('server', `labstock serve (pid ${server.child.pid}) on ${server.origin}; ${data.areas.length} control areas marked`);
    progress('server', `settled after ${(await settled(server.child.pid)).toFixed(1)} s`);
    const flammables = data.areas[0];
    let i = 0;
    const meterReq = () => ({ method: 'GET', path: `/locations/${flammables.id}/control-area/meter` });
    const checkReq = () => {
      const s = data.samples.outside[i++ % data.samples.outside.length];
      const shelf = flammables.shelves[i % flammables.shelves.length];
      return {
        method: 'POST',
        path: '/placement-checks',
        body: JSON.stringify({ location_id: shelf, instances: [{ instance_id: s.instanceId }] }),
      };
    };
    // A container in the area given another quantity before each request: the meter and the check cannot use what
    // they remembered (src/inventory/area-holdings.ts) and sum the area again.
    let w = 0;
    const changed = (req) => () => {
      const s = data.samples.flammables[w % data.samples.flammables.length];
      const before = {
        method: 'PUT',
        path: `/inventory-items/${s.itemId}/instances/${s.instanceId}`,
        body: JSON.stringify({ quantity: String(1 + (Math.floor(w++ / data.samples.flammables.length) % 2)) }),
      };
      return { ...req(), before };
    };
    const results = [];
    // The scenarios in rounds (floor, meter, check; again), then the floor once more: what a request costs just
    // after the server started and once it has run a while, side by side.
    const scenarios = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const r = ROUNDS > 1 ? ` (round ${round})` : '';
      scenarios.push(
        // The floor: the caller's own account (authentication, routing, a small answer), as little as an
        // authenticated request costs on this machine.
        ['floor', `GET /user: the floor${r}`, () => ({ method: 'GET', path: '/user' })],
        ['meter', `GET /locations/{id}/control-area/meter (${flammables.name})${r}`, meterReq],
        ['check', `POST /placement-checks: a container moved into ${flammables.name}${r}`, checkReq],
        ['meter', `… the meter, the area changed before each request (CPU includes the change)${r}`, changed(meterReq)],
        ['check', `… the check, the area changed before each request (CPU includes the change)${r}`, changed(checkReq)],
      );
    }
    scenarios.push(['floor', 'GET /user: the floor, last', () => ({ method: 'GET', path: '/user' })]);
    for (const [name, title, next] of scenarios) {
      const load = os.loadavg()[0];
      const r = await measure(server, headers, next, REQUESTS, WARMUP);
      const held =
        name === 'floor'
          ? r.sample.email
          : name === 'meter'
            ? r.sample.lines.map((l) => `${l.label} ${l.state} ${l.amount}/${l.limit} ${l.unit}`).join('; ')
            : `${r.sample.limits.length} limit finding(s), ${r.sample.segregation.length} segregation finding(s)`;
      progress(
        name,
        `${title}: p50 ${fmt.ms(r.p50)} ms, p99 ${fmt.ms(r.p99)} ms, ${fmt.int(r.cpuUsPerRequest)} µs CPU/req (load ${load.toFixed(2)}); ${held}`,
      );
      delete r.sample;
      results.push({ name, title, loadavg1: load, ...r, ...(name === 'floor' ? {} : { met: r.p99 < TARGET_P99_MS }) });
    }
    console.log(`\n${db.version}, ${data.counts.active.toLocaleString('en-US')} active instances, setup ${setupSeconds.toFixed(0)} s\n`);
    console.log(
      table(
        ['scenario', 'requests', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'CPU µs/req', `p99 < ${TARGET_P99_MS} ms`],
        results.map((r) => [
          r.title,
          r.count,
          fmt.ms(r.p50),
          fmt.ms(r.p90),
          fmt.ms(r.p99),
          fmt.ms(r.max),
          fmt.int(r.cpuUsPerRequest),
          r.met === undefined ? '(floor)' : r.met ? 'met' : 'MISSED',
        ]),
      ),
    );
    fs.mkdirSync(opt.out, { recursive: true });
    const file = path.join(opt.out, `control-area-${new Date().toISOString().replace(/:/g, '-').replace(/\..*$/, '')}.json`);
    fs.writeFileSync(
      file,
      `${JSON.stringify({ database: db.version, settings: { instances: INSTANCES, area: AREA, requests: REQUESTS, warmup: WARMUP, rounds: ROUNDS }, loadavg_at_start: loadStart, setupSeconds, counts: data.counts, results }, null, 2)}\n`,
    );
    progress('done', file);
  } finally {
    await cleanup();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
