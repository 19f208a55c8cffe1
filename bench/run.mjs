// `npm run bench`: how fast Labstock is, how it grows with data, and how close it is to the floor of this machine.
//
// Generates a dataset in a fresh database (SQLite, or PostgreSQL when DATABASE_URL=postgres://…), starts the real
// server (`labstock serve`, dist/) in its own process, and loads it from another process (autocannon). Every
// scenario runs twice with the same requests: against Labstock and against the floor, a bare node:http server
// answering with a precomputed body of the same size. Webhooks: events committed at a fixed rate and in a burst,
// delivered by the server's worker to a receiver on 127.0.0.1, against a bare undici POST loop to that receiver.
// Prints a table, writes bench/results/<date>.json. See docs/performance.md.
//
//   npm run bench                                   # default: 100,000 items, 100 labs, 10 s a run
//   npm run bench -- --items 5000 --duration 3      # a quick check
//   npm run bench -- --items 1000000                # the large run
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench
import { fork, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { freshDatabase, generateDataset } from './lib/dataset.mjs';
import { printProfile, summarizeProfile } from './lib/profile.mjs';
import { fmt, table } from './lib/stats.mjs';
import { printTrace, summarizeTrace } from './lib/trace-summary.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'dist', 'cli', 'main.js');
const lib = path.join(root, 'bench', 'lib');

// `npm run bench -- --control-area [--instances N --area N --requests N]`: issue 26's bench of the control-area
// meter and the limit check (bench/control-area.mjs), its own dataset and run.
if (process.argv.includes('--control-area')) {
  const args = process.argv.slice(2).filter((a) => a !== '--control-area');
  const child = spawn(process.execPath, [path.join(root, 'bench', 'control-area.mjs'), ...args], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 1));
  await new Promise(() => {});
}

const ALL_SCENARIOS = ['get-item', 'list-page', 'search', 'put-instance', 'post-order', 'webhooks'];
const EXTRA_SCENARIOS = ['list-all'];
/**
 * `search` runs as four measurements: a common word, a rare word, an expiry filter, and parts of words found
 * inside them (issue 23, docs/performance.md).
 */
const SEARCH_RUNS = ['search-common', 'search-rare', 'search-expiring', 'search-substring'];
/**
 * Parts of words as people type them (issue 23: `ethyl` finds "Dimethyl sulfoxide"): inside the dataset's names
 * and vendors (bench/lib/dataset.mjs), from ~3 % of the items ("ormald") to ~10 % ("ldrich", "thanol"), in any case.
 */
const SUBSTRINGS = ['thanol', 'ycin', 'ormald', 'CTIN', 'ofecta', 'olymer', 'ovine', 'loride', 'ldrich', 'ermo', 'Ycin', 'GAPD'];
const { values: opt } = parseArgs({
  options: {
    items: { type: 'string', default: '100000' },
    labs: { type: 'string', default: '100' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
    scenarios: { type: 'string', default: ALL_SCENARIOS.join(',') },
    rate: { type: 'string', default: 'auto' },
    check: { type: 'boolean', default: false },
    events: { type: 'string', default: '5000' },
    burst: { type: 'string', default: '5000' },
    'log-level': { type: 'string', default: 'warn' },
    profile: { type: 'boolean', default: false },
    trace: { type: 'boolean', default: false },
    'no-floor': { type: 'boolean', default: false },
    'worker-process': { type: 'string' },
    out: { type: 'string', default: path.join(root, 'bench', 'results') },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (opt.help) {
  console.log(`npm run bench -- [options]            (DATABASE_URL=postgres://… for PostgreSQL; SQLite otherwise)
  --items N          inventory items in the dataset (default 100000; 1000000 for the large run)
  --labs N           labs, every other one migrated to instances (default 100)
  --duration S       seconds of measurement per run (default 10), after --warmup S (default 2)
  --connections N    concurrent connections of the load generator (default 10)
  --scenarios LIST   comma-separated, from ${[...ALL_SCENARIOS, ...EXTRA_SCENARIOS].join(', ')} (default: all but list-all);
                     search is three runs: ${SEARCH_RUNS.join(', ')}
  --rate R           webhook events committed per second in the paced run (default auto: half of the PUT
                     throughput measured by put-instance in the same run, issue 27; 500 without that scenario)
  --check            exit 1 when a target is MISSED (a benchmark's verdict, not part of npm test)
  --events N         events in the paced webhook run (default 5000)
  --burst N          events committed at once for delivery throughput (default 5000)
  --log-level L      the server's LOG_LEVEL (default warn; info logs every request)
  --profile          run the server under node --cpu-prof and summarize where its CPU time went
  --trace            time each delivery's steps in the server (WEBHOOK_TRACE) and print where the paced run's
                     and the burst's time went (bench/lib/trace-summary.mjs)
  --no-floor         skip the floor runs
  --worker-process P deliver from a separate \`labstock worker\` process polling every P (e.g. 20ms), the server
                     running \`serve --no-worker\` (default: the worker inside the server)
  --out DIR          where results/<date>.json goes (default bench/results)`);
  process.exit(0);
}

const int = (name) => {
  const n = Number(opt[name]);
  if (!Number.isInteger(n) || n <= 0) {
    console.error(`--${name}: expected a positive whole number, got "${opt[name]}"`);
    process.exit(2);
  }
  return n;
};
const settings = {
  items: int('items'),
  labs: int('labs'),
  duration: int('duration'),
  warmup: Number(opt.warmup) || 0,
  connections: int('connections'),
  rate: opt.rate === 'auto' ? null : int('rate'),
  check: opt.check,
  events: int('events'),
  burst: int('burst'),
  logLevel: opt['log-level'],
  profile: opt.profile,
  trace: opt.trace,
  floor: !opt['no-floor'],
  workerProcess: opt['worker-process'] ?? null,
  scenarios: opt.scenarios
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
};
for (const s of settings.scenarios) {
  if (![...ALL_SCENARIOS, ...EXTRA_SCENARIOS].includes(s)) {
    console.error(`--scenarios: unknown scenario "${s}"; choose from ${[...ALL_SCENARIOS, ...EXTRA_SCENARIOS].join(', ')}`);
    process.exit(2);
  }
}
if (!fs.existsSync(cli)) {
  console.error('dist/ is missing: run `npm run build` first (npm run bench does)');
  process.exit(2);
}

const t0 = performance.now();
const progress = (phase, message) => console.log(`[${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s] ${phase}: ${message}`);
const stamp = new Date().toISOString().replace(/:/g, '-').replace(/\..*$/, '');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'labstock-bench-run-'));
const children = new Set();
let db = null;

function machine() {
  const cpu = (fs.readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.*)$/m) ?? [])[1] ?? os.cpus()[0]?.model ?? 'unknown';
  return {
    nproc: os.availableParallelism(),
    cpu_model: cpu.trim(),
    ram_gb: +(os.totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    loadavg_at_start: os.loadavg().map((x) => +x.toFixed(2)),
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

/** Runs a bench/lib script as its own process and returns the JSON it prints last. */
function runJson(script, config) {
  const file = path.join(tmp, `${path.basename(script, '.mjs')}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, JSON.stringify(config));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(lib, script), file], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('exit', (code) => {
      children.delete(child);
      const last = out.trim().split('\n').pop();
      if (code !== 0 || !last) reject(new Error(`${script} exited with ${code}: ${err || out}`));
      else resolve(JSON.parse(last));
    });
  });
}

/** Reads a field (kB) of /proc/<pid>/status. */
function procStatus(pid, field) {
  try {
    const m = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}
/** CPU time (user + system) a process has used so far, in milliseconds. */
/** CPU of the process (all threads), or with `thread` of one of them (its main thread: the pid itself). */
function cpuMs(pid, thread = null) {
  try {
    const fields = fs
      .readFileSync(thread ? `/proc/${pid}/task/${thread}/stat` : `/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
const CLOCK_TICKS = 100;

/** Resets the peak RSS (VmHWM) of a process we own, so each phase reports its own peak. */
function resetPeak(pid) {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Where the server's delivery trace goes with --trace. */
const traceFile = path.join(tmp, 'delivery-trace.jsonl');

/** The server's APP_URL, fixed so that the dataset's stored item documents (written before it starts) show it. */
const BENCH_APP_URL = 'http://127.0.0.1:8080';

async function startServer(databaseUrl) {
  const port = await freePort();
  const profileDir = path.join(opt.out, 'profiles', stamp);
  if (settings.profile) fs.mkdirSync(profileDir, { recursive: true });
  const logFile = path.join(tmp, 'server.log');
  const log = fs.openSync(logFile, 'a');
  const nodeArgs = settings.profile ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    PORT: String(port),
    APP_URL: BENCH_APP_URL,
    LOG_LEVEL: settings.logLevel,
    RATE_LIMIT_PER_MINUTE: '0',
    WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
    ...(settings.trace ? { WEBHOOK_TRACE: traceFile } : {}),
  };
  const child = spawn(process.execPath, [...nodeArgs, cli, 'serve', ...(settings.workerProcess ? ['--no-worker'] : [])], {
    stdio: ['ignore', log, log],
    env,
  });
  children.add(child);
  // The delivery worker in its own process: the server's event loop no longer delays its HTTP exchanges.
  const worker = settings.workerProcess
    ? spawn(process.execPath, [cli, 'worker'], { stdio: ['ignore', log, log], env: { ...env, WEBHOOK_POLL: settings.workerProcess } })
    : null;
  if (worker) children.add(worker);
  let exited = null;
  child.on('exit', (code, signal) => {
    exited = { code, signal };
    children.delete(child);
  });
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`the server exited (${JSON.stringify(exited)}):\n${fs.readFileSync(logFile, 'utf8').slice(-4000)}`);
    try {
      const res = await request(`${origin}/healthz`);
      await res.body.dump();
      if (res.statusCode === 200) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline)
      throw new Error(`the server did not answer /healthz within 60 s:\n${fs.readFileSync(logFile, 'utf8').slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    origin,
    pid: child.pid,
    workerPid: worker?.pid ?? child.pid,
    profileDir,
    logFile,
    async stop() {
      if (worker && worker.exitCode === null) {
        const gone = new Promise((r) => worker.once('exit', r));
        worker.kill('SIGTERM');
        await Promise.race([gone, new Promise((r) => setTimeout(r, 20_000))]);
        if (worker.exitCode === null) worker.kill('SIGKILL');
        children.delete(worker);
      }
      if (exited) return;
      const done = new Promise((r) => child.on('exit', r));
      child.kill('SIGTERM');
      await Promise.race([done, new Promise((r) => setTimeout(r, 20_000))]);
      if (!exited) child.kill('SIGKILL');
    },
  };
}

async function startFloor(bytes, status) {
  const child = spawn(process.execPath, [path.join(lib, 'floor-server.mjs'), String(bytes), String(status)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  const port = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      const m = /listening (\d+)/.exec(String(d));
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`the floor server exited with ${code}`)));
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    async stop() {
      const done = new Promise((r) => child.on('exit', r));
      child.kill('SIGTERM');
      await done;
      children.delete(child);
    },
  };
}

function startReceiver() {
  const child = fork(path.join(lib, 'receiver.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.add(child);
  const next = () => new Promise((resolve) => child.once('message', resolve));
  return next().then(({ port }) => ({
    url: `http://127.0.0.1:${port}/hook`,
    origin: `http://127.0.0.1:${port}`,
    async reset() {
      const p = next();
      child.send({ cmd: 'reset' });
      await p;
    },
    async wait(count, timeoutMs) {
      const p = next();
      child.send({ cmd: 'wait', count, timeoutMs });
      return p;
    },
    async stop() {
      const done = new Promise((r) => child.on('exit', r));
      child.send({ cmd: 'stop' });
      await done;
      children.delete(child);
    },
  }));
}

const pickN = (xs, n) => xs.slice(0, Math.max(1, Math.min(n, xs.length)));

/** The request templates of each HTTP scenario (one is picked at random for every request). */
function scenarioTemplates(name, data) {
  const migratedLabs = data.labs.filter((l) => l.migrated && l.itemCount > 0);
  switch (name) {
    case 'get-item':
      return {
        title: 'GET one item',
        status: 200,
        templates: data.samples.items.map((i) => ({ method: 'GET', path: `/inventory-items/${i.id}` })),
      };
    case 'list-page':
      return {
        title: 'list 25 items with instances',
        status: 200,
        templates: migratedLabs.flatMap((l) => {
          const pages = Math.max(1, Math.ceil(l.itemCount / 25));
          return Array.from({ length: Math.min(pages, 20) }, () => ({
            method: 'GET',
            path: `/inventory-items?lab_id=${l.id}&per_page=25&page=${1 + Math.floor(Math.random() * pages)}`,
          }));
        }),
      };
    case 'list-all':
      return {
        title: 'list 25 items, all labs',
        status: 200,
        templates: Array.from({ length: 50 }, () => ({
          method: 'GET',
          path: `/inventory-items?per_page=25&page=${1 + Math.floor(Math.random() * Math.max(1, Math.floor(data.counts.items / 25)))}`,
        })),
      };
    // GET /inventory-items search as an org admin across every lab (docs/product.md §12), first pages of 25.
    case 'search-common':
      return {
        title: 'search a common word (q=anti, ~11% of items)',
        status: 200,
        templates: [1, 2, 3].map((page) => ({ method: 'GET', path: `/inventory-items?q=anti&per_page=25&page=${page}` })),
      };
    case 'search-rare':
      return {
        title: 'search a rare word (a lot number)',
        status: 200,
        templates: data.samples.rareWords.map((word) => ({
          method: 'GET',
          path: `/inventory-items?q=${encodeURIComponent(word)}&per_page=25`,
        })),
      };
    // Issue 23: inside words, across every lab; parts of names and vendors (pages 1 and 2) and the middle of lot
    // numbers (about one item each).
    case 'search-substring':
      return {
        title: 'search inside words (q=thanol, ycin, a part of a lot …)',
        status: 200,
        templates: [
          ...SUBSTRINGS.flatMap((q) => [1, 2].map((page) => ({ method: 'GET', path: `/inventory-items?q=${q}&per_page=25&page=${page}` }))),
          ...data.samples.rareWords
            .filter((w) => w.length >= 5)
            .slice(0, 24)
            .map((w) => ({ method: 'GET', path: `/inventory-items?q=${encodeURIComponent(w.slice(1, -1))}&per_page=25` })),
        ],
      };
    case 'search-expiring': {
      const day = (n) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
      return {
        title: 'items expiring within 30 days',
        status: 200,
        templates: [1, 2].map((page) => ({ method: 'GET', path: `/inventory-items?expiring_before=${day(30)}&per_page=25&page=${page}` })),
      };
    }
    case 'put-instance':
      return {
        title: 'PUT instance quantity',
        status: 200,
        templates: data.samples.instances.map((i) => ({
          method: 'PUT',
          path: `/inventory-items/${i.itemId}/instances/${i.instanceId}`,
          body: '{"quantity":"{{seq}}.5"}',
        })),
      };
    case 'post-order':
      return {
        title: 'POST order request',
        status: 201,
        templates: pickN(data.labs, 200).flatMap((l) =>
          l.typeIds.slice(0, 2).map((typeId) => ({
            method: 'POST',
            path: '/order-requests',
            body: JSON.stringify({
              lab_id: l.id,
              type_id: typeId,
              name: 'Anti-GFP antibody {{seq}}',
              vendor_name: 'Abcam',
              catalog_number: 'ab290',
              price: { amount: '389.00', currency: 'EUR' },
              quantity: 2,
              notes: 'For the imaging run',
            }),
          })),
        ),
      };
    default:
      throw new Error(`no templates for ${name}`);
  }
}

/** Sends a few of the scenario's requests one by one: checks they succeed and measures the response size. */
async function probe(origin, headers, spec) {
  const sizes = [];
  for (const t of spec.templates.slice(0, 20)) {
    const res = await request(`${origin}${t.path}`, {
      method: t.method,
      headers: { ...headers, ...(t.body ? { 'content-type': 'application/json' } : {}) },
      body: t.body?.replaceAll('{{seq}}', String(9_000_000 + sizes.length)),
    });
    const text = await res.body.text();
    if (res.statusCode !== spec.status)
      throw new Error(`${t.method} ${t.path} answered ${res.statusCode}, expected ${spec.status}: ${text.slice(0, 500)}`);
    sizes.push(Buffer.byteLength(text));
  }
  return Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length);
}

// Issue 15's targets (SQLite, quiet machine); PostgreSQL aims for half of them.
const TARGETS = {
  'get-item': { ratio: 0.35 },
  'list-page': { ratio: 0.25 },
  'put-instance': { ratio: 0.15 },
  'post-order': { ratio: 0.15 },
  // Issue 27: the burst at 0.6 of the floor and ≤ 150 µs of server CPU per delivery; paced at half the PUT throughput,
  // commit-to-receipt p99 < 100 ms and p50 < 20 ms.
  webhooks: { ratio: 0.6, p99Ms: 100, p50Ms: 20, cpuUs: 150 },
};

/** Every target's verdict of the run, printed beside its figure; `--check` exits 1 when one is MISSED. */
const missed = [];
const verdict = (ok, what) => {
  if (!ok && what) missed.push(what);
  return ok ? 'met' : 'MISSED';
};

async function main() {
  const info = machine();
  progress(
    'machine',
    `${info.nproc} cores (${info.cpu_model}), ${info.ram_gb} GB RAM, Node ${info.node}, load average ${info.loadavg_at_start.join(' ')}`,
  );
  db = await freshDatabase(process.env.DATABASE_URL);
  progress('database', db.label);
  const database = { kind: db.kind, version: db.version, label: db.label };
  const tData = performance.now();
  const data = await generateDataset(db, {
    items: settings.items,
    labs: settings.labs,
    appUrl: BENCH_APP_URL,
    progress: (m) => progress('dataset', m),
  });
  const datasetSeconds = (performance.now() - tData) / 1000;
  progress('dataset', `ready in ${datasetSeconds.toFixed(1)} s`);

  const server = await startServer(db.url);
  const startRss = procStatus(server.pid, 'VmRSS');
  progress('server', `labstock serve (pid ${server.pid}) on ${server.origin}, RSS ${fmt.mb(startRss)} MB after start`);
  const headers = { 'access-token': data.adminToken };
  const results = [];
  let peakRssKb = procStatus(server.pid, 'VmHWM');
  const seqBase = Math.floor(Math.random() * 1e6);

  for (const name of settings.scenarios.flatMap((s) => (s === 'search' ? SEARCH_RUNS : [s])).filter((s) => s !== 'webhooks')) {
    const spec = scenarioTemplates(name, data);
    const bytes = await probe(server.origin, headers, spec);
    const canReset = resetPeak(server.pid);
    progress(
      name,
      `${spec.title}: ${spec.templates.length} request variants, ~${bytes} B responses; ${settings.connections} connections, ${settings.warmup} s warm-up + ${settings.duration} s`,
    );
    const load = {
      connections: settings.connections,
      duration: settings.duration,
      warmup: settings.warmup,
      headers,
      templates: spec.templates,
      seqBase,
    };
    const cpuBefore = cpuMs(server.pid);
    const labstock = await runJson('loadgen.mjs', { ...load, url: server.origin });
    const cpuUs = cpuBefore == null ? null : ((cpuMs(server.pid) - cpuBefore) * 1000) / labstock.all_requests;
    const rssKb = procStatus(server.pid, canReset ? 'VmHWM' : 'VmRSS');
    peakRssKb = Math.max(peakRssKb ?? 0, rssKb ?? 0);
    progress(
      name,
      `labstock ${fmt.int(labstock.rps)} req/s, p50 ${fmt.ms(labstock.p50)} ms, p99 ${fmt.ms(labstock.p99)} ms, server CPU ${fmt.int(cpuUs)} µs/request, peak RSS ${fmt.mb(rssKb)} MB${labstock.non2xx || labstock.errors ? `, ${labstock.non2xx} non-2xx and ${labstock.errors} errors: ${JSON.stringify(labstock.statuses)}` : ''}`,
    );
    let floor = null;
    if (settings.floor) {
      const f = await startFloor(bytes, spec.status);
      try {
        floor = await runJson('loadgen.mjs', { ...load, url: f.origin });
      } finally {
        await f.stop();
      }
      progress(
        name,
        `floor    ${fmt.int(floor.rps)} req/s, p50 ${fmt.ms(floor.p50)} ms, p99 ${fmt.ms(floor.p99)} ms; ratio ${fmt.ratio(labstock.rps / floor.rps)}`,
      );
    }
    results.push({
      scenario: name,
      title: spec.title,
      response_bytes: bytes,
      labstock,
      floor,
      ratio: floor ? labstock.rps / floor.rps : null,
      server_cpu_us_per_request: cpuUs,
      server_peak_rss_kb: rssKb,
    });
  }

  let webhooks = null;
  if (settings.scenarios.includes('webhooks')) {
    // Issue 27: delivery must keep up while the API writes at half of what it can take, whatever the machine.
    if (settings.rate === null) {
      const put = results.find((r) => r.scenario === 'put-instance');
      settings.rate = put ? Math.max(50, Math.round(put.labstock.rps / 2)) : 500;
      progress('webhooks', `paced rate ${settings.rate}/s (${put ? 'half of put-instance' : 'no put-instance run: the default'})`);
    }
    webhooks = await runWebhooks(server, data, headers, seqBase);
    peakRssKb = Math.max(peakRssKb ?? 0, webhooks.server_peak_rss_kb ?? 0);
  }

  await server.stop();
  progress('server', 'stopped');
  let profile = null;
  if (settings.profile) {
    const files = fs.readdirSync(server.profileDir).filter((f) => f.endsWith('.cpuprofile'));
    if (files.length) {
      profile = summarizeProfile(path.join(server.profileDir, files[0]));
      printProfile(profile, (l) => console.log(l));
    } else console.log(`no CPU profile was written to ${server.profileDir}`);
  }
  await db.drop();
  db = null;

  const report = {
    date: new Date().toISOString(),
    machine: { ...info, loadavg_at_end: os.loadavg().map((x) => +x.toFixed(2)) },
    database: database.label,
    database_kind: database.kind,
    database_version: database.version,
    settings,
    dataset: { ...data.counts, seconds: +datasetSeconds.toFixed(1) },
    server: { rss_after_start_kb: startRss, peak_rss_kb: peakRssKb },
    scenarios: results,
    webhooks,
    profile,
    total_seconds: +((performance.now() - t0) / 1000).toFixed(1),
  };
  return report;
}

async function runWebhooks(server, data, headers, seqBase) {
  const receiver = await startReceiver();
  try {
    const res = await request(`${server.origin}/webhooks`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        lab_id: data.webhookLabId,
        url: receiver.url,
        event_types: ['inventory-item.updated'],
        name: 'bench receiver',
      }),
    });
    const created = await res.body.text();
    if (res.statusCode !== 201) throw new Error(`POST /webhooks answered ${res.statusCode}: ${created}`);
    const canReset = resetPeak(server.pid);

    // Paced: events committed at a fixed rate through the API (PUT an instance's quantity: one event each).
    await receiver.reset();
    const templates = data.samples.webhookInstances.map((i) => ({
      method: 'PUT',
      path: `/inventory-items/${i.itemId}/instances/${i.instanceId}`,
      body: '{"quantity":"{{seq}}.25"}',
    }));
    // Warm-up, as the HTTP scenarios have: the same load for --warmup seconds, delivered and then forgotten. Without
    // it the first second (a fresh webhook, the delivery path not yet optimized by V8) sets the p99.
    const warmupEvents = Math.round(settings.warmup * settings.rate);
    if (warmupEvents > 0) {
      progress('webhooks', `paced warm-up: ${warmupEvents} events at ${settings.rate}/s`);
      const warmArrived = receiver.wait(warmupEvents, settings.warmup * 1000 + 60_000);
      await runJson('driver.mjs', {
        mode: 'rate',
        origin: server.origin,
        headers,
        templates,
        count: warmupEvents,
        rate: settings.rate,
        connections: 64,
        seqBase: seqBase + 5_000_000,
        preconnect: '/healthz',
      });
      const warm = await warmArrived;
      progress(
        'webhooks',
        `paced warm-up: ${warm.received} delivered, commit-to-receipt p50 ${fmt.ms(warm.latency.p50)} ms, p99 ${fmt.ms(warm.latency.p99)} ms`,
      );
      await receiver.reset();
    }
    progress(
      'webhooks',
      `paced: ${settings.events} events at ${settings.rate}/s through PUT (${templates.length} instances), delivered by the server's worker to ${receiver.url}`,
    );
    const arrived = receiver.wait(settings.events, (settings.events / settings.rate) * 1000 + 60_000);
    const pacedFrom = Date.now();
    const driven = await runJson('driver.mjs', {
      mode: 'rate',
      origin: server.origin,
      headers,
      templates,
      count: settings.events,
      rate: settings.rate,
      connections: 64,
      seqBase,
      preconnect: '/healthz',
    });
    const paced = await arrived;
    const pacedTo = Date.now();
    const pacedSeconds = paced.lastAt && paced.firstAt ? (paced.lastAt - paced.firstAt) / 1000 : null;
    progress(
      'webhooks',
      `paced: ${driven.ok}/${driven.sent} PUTs ok in ${driven.seconds.toFixed(1)} s (driver lag max ${fmt.ms(driven.maxLagMs)} ms); ${paced.received} delivered, commit-to-receipt p50 ${fmt.ms(paced.latency.p50)} ms, p99 ${fmt.ms(paced.latency.p99)} ms`,
    );
    progress(
      'webhooks',
      `paced, second by second: commit-to-receipt p99 ${(paced.bySecond ?? []).map((b) => fmt.ms(b?.p99)).join(' ')} ms; PUT answer p99 ${(driven.bySecond ?? []).map((b) => fmt.ms(b?.p99)).join(' ')} ms`,
    );
    const sample = paced.sampleBody;
    if (!sample) throw new Error('no delivery arrived at the receiver');

    // Burst: many events committed in one transaction straight into the outbox; the worker drains them.
    await receiver.reset();
    const event = JSON.parse(sample);
    const { loadConfig } = await import('../dist/shared/config.js');
    const { openDatabase } = await import('../dist/shared/db/database.js');
    const { emitEvents } = await import('../dist/events/outbox.js');
    const config = loadConfig({ DATABASE_URL: db.url, LOG_LEVEL: 'silent', APP_URL: BENCH_APP_URL });
    const handle = openDatabase(config.database, { poolSize: 2 });
    const resource = Object.values(event.data)[0];
    const drained = receiver.wait(settings.burst, 120_000);
    const cpuBefore = cpuMs(server.workerPid);
    // The main thread apart: the API's event loop, which claims and records (the send thread does the HTTP).
    const mainBefore = cpuMs(server.workerPid, server.workerPid);
    const committedAt = performance.timeOrigin + performance.now();
    await handle.db.transaction().execute((trx) =>
      emitEvents(
        trx,
        config,
        Array.from({ length: settings.burst }, () => ({
          type: 'inventory-item.updated',
          organizationId: data.orgId,
          labId: data.webhookLabId,
          resource,
        })),
      ),
    );
    await handle.close();
    progress('webhooks', `burst: ${settings.burst} events committed in one transaction; waiting for the worker to drain them`);
    const burst = await drained;
    const burstTo = Date.now();
    const cpuPerDelivery =
      cpuBefore == null || burst.received === 0 ? null : ((cpuMs(server.workerPid) - cpuBefore) * 1000) / burst.received;
    const mainPerDelivery =
      mainBefore == null || burst.received === 0
        ? null
        : ((cpuMs(server.workerPid, server.workerPid) - mainBefore) * 1000) / burst.received;
    const burstRate = burst.received > 1 ? (burst.received - 1) / ((burst.lastAt - burst.firstAt) / 1000) : null;
    const rssKb = procStatus(server.pid, canReset ? 'VmHWM' : 'VmRSS');
    progress(
      'webhooks',
      `burst: ${burst.received} delivered at ${fmt.int(burstRate)}/s, ${settings.workerProcess ? 'worker' : 'server'} CPU ${fmt.int(cpuPerDelivery)} µs/delivery, main thread ${fmt.int(mainPerDelivery)} (first after ${fmt.ms(burst.firstAt - committedAt)} ms, last after ${fmt.ms(burst.lastAt - committedAt)} ms)`,
    );

    let trace = null;
    if (settings.trace) {
      await new Promise((r) => setTimeout(r, 1500)); // the server writes its trace once a second
      trace = {
        paced: summarizeTrace(traceFile, pacedFrom, pacedTo),
        burst: summarizeTrace(traceFile, committedAt - 1000, burstTo),
      };
      printTrace(trace.paced, (l) => progress('webhooks', `paced ${l}`));
      printTrace(trace.burst, (l) => progress('webhooks', `burst ${l}`));
    }

    let floorPaced = null;
    let floorBurst = null;
    let floorBurstRate = null;
    if (settings.floor) {
      const post = [{ method: 'POST', path: '/hook', body: sample }];
      await receiver.reset();
      const fArrived = receiver.wait(settings.events, (settings.events / settings.rate) * 1000 + 60_000);
      await runJson('driver.mjs', {
        mode: 'rate',
        origin: receiver.origin,
        templates: post,
        count: settings.events,
        rate: settings.rate,
        connections: 64,
        stamp: true,
        preconnect: '/',
      });
      floorPaced = await fArrived;
      await receiver.reset();
      const fDrained = receiver.wait(settings.burst, 120_000);
      await runJson('driver.mjs', {
        mode: 'burst',
        origin: receiver.origin,
        templates: post,
        count: settings.burst,
        concurrency: 16,
        connections: 16,
        stamp: true,
      });
      floorBurst = await fDrained;
      floorBurstRate = floorBurst.received > 1 ? (floorBurst.received - 1) / ((floorBurst.lastAt - floorBurst.firstAt) / 1000) : null;
      progress(
        'webhooks',
        `floor: bare undici POSTs at ${settings.rate}/s p50 ${fmt.ms(floorPaced.latency.p50)} ms, p99 ${fmt.ms(floorPaced.latency.p99)} ms; 16 in flight: ${fmt.int(floorBurstRate)}/s; ratio ${fmt.ratio(burstRate / floorBurstRate)}`,
      );
    }
    return {
      body_bytes: Buffer.byteLength(sample),
      rate: settings.rate,
      events: settings.events,
      burst: settings.burst,
      paced: { puts: driven, delivered: paced.received, seconds: pacedSeconds, latency_ms: paced.latency, by_second_ms: paced.bySecond },
      burst_result: {
        delivered: burst.received,
        deliveries_per_s: burstRate,
        server_cpu_us_per_delivery: cpuPerDelivery,
        main_thread_cpu_us_per_delivery: mainPerDelivery,
        first_after_ms: burst.firstAt - committedAt,
        last_after_ms: burst.lastAt - committedAt,
      },
      floor: settings.floor ? { paced_latency_ms: floorPaced.latency, burst_per_s: floorBurstRate, concurrency: 16 } : null,
      ratio: floorBurstRate ? burstRate / floorBurstRate : null,
      server_peak_rss_kb: rssKb,
      trace,
    };
  } finally {
    await receiver.stop();
  }
}

function printReport(report) {
  const large = report.settings.items >= 1_000_000;
  const rows = report.scenarios.map((r) => {
    const target = TARGETS[r.scenario];
    const goals = [];
    if (target?.ratio && r.ratio != null) goals.push(`ratio ≥ ${target.ratio}: ${verdict(r.ratio >= target.ratio, `${r.scenario} ratio`)}`);
    if (large && r.scenario === 'list-page') goals.push(`p99 < 10 ms: ${verdict(r.labstock.p99 < 10, 'list-page p99')}`);
    // Issue 23: SQLite's target; PostgreSQL is reported beside it.
    if (large && r.scenario === 'search-substring' && report.database.startsWith('SQLite'))
      goals.push(`p99 < 50 ms: ${verdict(r.labstock.p99 < 50, 'search-substring p99')}`);
    return [
      r.title,
      fmt.int(r.labstock.rps),
      fmt.ms(r.labstock.p50),
      fmt.ms(r.labstock.p99),
      fmt.int(r.server_cpu_us_per_request),
      fmt.mb(r.server_peak_rss_kb),
      r.floor ? fmt.int(r.floor.rps) : '–',
      r.floor ? fmt.ms(r.floor.p50) : '–',
      r.floor ? fmt.ms(r.floor.p99) : '–',
      fmt.ratio(r.ratio),
      String(r.response_bytes),
      r.labstock.non2xx || r.labstock.errors ? `${r.labstock.non2xx + r.labstock.errors} failed!` : '',
      goals.join('; '),
    ];
  });
  console.log(
    `\nLabstock benchmark, ${report.date}: ${report.database}; ${report.dataset.items.toLocaleString('en-US')} items in ${report.dataset.labs} labs ` +
      `(${report.dataset.instances.toLocaleString('en-US')} instances); ${report.machine.nproc} cores ${report.machine.cpu_model}, ${report.machine.ram_gb} GB, Node ${report.machine.node}; ` +
      `load average ${report.machine.loadavg_at_start.join(' ')} at start, ${report.machine.loadavg_at_end.join(' ')} at end` +
      (report.settings.workerProcess
        ? `; webhooks delivered by a separate \`labstock worker\` process polling every ${report.settings.workerProcess}`
        : ''),
  );
  console.log(
    `${report.settings.connections} connections, ${report.settings.warmup} s warm-up + ${report.settings.duration} s per run; latencies in ms; CPU µs/req is the server's CPU time per request (steadier than req/s on a busy machine); RSS in MB (server peak during the run)\n`,
  );
  if (rows.length) {
    console.log(
      table(
        [
          'scenario',
          'req/s',
          'p50',
          'p99',
          'CPU µs/req',
          'RSS',
          'floor req/s',
          'floor p50',
          'floor p99',
          'ratio',
          'bytes',
          'errors',
          'targets',
        ],
        rows,
      ),
    );
  }
  const w = report.webhooks;
  if (w) {
    const goals = [];
    const goal = TARGETS.webhooks;
    if (w.ratio != null) goals.push(`ratio ≥ ${goal.ratio}: ${verdict(w.ratio >= goal.ratio, 'webhook burst ratio')}`);
    const cpu = w.burst_result.server_cpu_us_per_delivery;
    if (cpu != null) goals.push(`CPU ≤ ${goal.cpuUs} µs per delivery: ${verdict(cpu <= goal.cpuUs, 'CPU per delivery')}`);
    goals.push(`p50 < ${goal.p50Ms} ms at ${w.rate}/s: ${verdict(w.paced.latency_ms.p50 < goal.p50Ms, 'paced p50')}`);
    goals.push(`p99 < ${goal.p99Ms} ms at ${w.rate}/s: ${verdict(w.paced.latency_ms.p99 < goal.p99Ms, 'paced p99')}`);
    console.log(`\nwebhooks (${w.body_bytes} B events, one lab webhook, receiver on 127.0.0.1):`);
    console.log(
      table(
        ['measure', 'labstock', 'floor (bare undici POST)', 'ratio'],
        [
          [
            `deliveries/s, burst of ${w.burst} (16 in flight)`,
            fmt.int(w.burst_result.deliveries_per_s),
            w.floor ? fmt.int(w.floor.burst_per_s) : '–',
            fmt.ratio(w.ratio),
          ],
          ['server CPU µs per delivery (burst)', fmt.int(w.burst_result.server_cpu_us_per_delivery), '', ''],
          [
            `commit-to-receipt p50 at ${w.rate}/s (ms)`,
            fmt.ms(w.paced.latency_ms.p50),
            w.floor ? fmt.ms(w.floor.paced_latency_ms.p50) : '–',
            '',
          ],
          [
            `commit-to-receipt p99 at ${w.rate}/s (ms)`,
            fmt.ms(w.paced.latency_ms.p99),
            w.floor ? fmt.ms(w.floor.paced_latency_ms.p99) : '–',
            '',
          ],
          [`events committed/s (asked ${w.rate}/s, through PUT)`, fmt.int(w.paced.puts.sent / w.paced.puts.seconds), '', ''],
          [`delivered of ${w.events} paced events`, String(w.paced.delivered), '', ''],
          ['server peak RSS (MB)', fmt.mb(w.server_peak_rss_kb), '', ''],
        ],
      ),
    );
    if (goals.length) console.log(`targets: ${goals.join('; ')}`);
  }
  const rssGoal = large ? `; target < 300 MB: ${verdict(report.server.peak_rss_kb / 1024 < 300, 'peak RSS')}` : '';
  console.log(
    `\nserver peak RSS over the run: ${fmt.mb(report.server.peak_rss_kb)} MB${rssGoal}; dataset generated in ${report.dataset.seconds} s; whole run ${report.total_seconds} s`,
  );
}

async function cleanup() {
  for (const c of children) c.kill('SIGKILL');
  if (db) await db.drop().catch((err) => console.error(`could not drop the bench database: ${err.message}`));
  db = null;
  fs.rmSync(tmp, { recursive: true, force: true });
}

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    console.error(`\n${sig}: stopping`);
    void cleanup().finally(() => process.exit(130));
  });
}

try {
  const report = await main();
  printReport(report);
  fs.mkdirSync(opt.out, { recursive: true });
  const file = path.join(opt.out, `${stamp}.json`);
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`results: ${path.relative(process.cwd(), file)}`);
  await cleanup();
  if (missed.length) console.log(`\ntargets MISSED: ${missed.join(', ')}`);
  else console.log('\nevery target met');
  if (settings.check && missed.length) process.exit(1);
} catch (err) {
  console.error(err instanceof Error ? err.stack : err);
  await cleanup();
  process.exit(1);
}
