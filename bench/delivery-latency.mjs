// Idle delivery latency: from a change's commit to its webhook's receipt, one event at a time, with a bare
// undici POST to the same receiver as the floor. Prints p50/p99 for both and their ratio.
//   npm run build && node bench/delivery-latency.mjs [--events 200]        (SQLite)
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/delivery-latency.mjs
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { request } from 'undici';
import { createOrganization, createUser } from '../dist/accounts/service.js';
import { createWorker } from '../dist/delivery/worker.js';
import { addInstance } from '../dist/inventory/instances.js';
import { createItem } from '../dist/inventory/items.js';
import { updateInstanceQuantity } from '../dist/inventory/quantities.js';
import { createLab } from '../dist/labs/service.js';
import { systemActor } from '../dist/shared/actor.js';
import { loadConfig, parseDatabaseUrl } from '../dist/shared/config.js';
import { migrateToLatest, openDatabase } from '../dist/shared/db/database.js';
import { createWebhook } from '../dist/webhooks/service.js';

const n = Number(process.argv[process.argv.indexOf('--events') + 1] || 200) || 200;
const target = parseDatabaseUrl(process.env.DATABASE_URL);
let databaseUrl;
let cleanup = async () => {};
let pgSchema;
if (target.kind === 'postgres') {
  pgSchema = `bench_${Date.now().toString(36)}`;
  const c = new pg.Client({ connectionString: target.url });
  await c.connect();
  await c.query(`CREATE SCHEMA ${pgSchema}`);
  await c.end();
  databaseUrl = target.url;
  cleanup = async () => {
    const d = new pg.Client({ connectionString: target.url });
    await d.connect();
    await d.query(`DROP SCHEMA ${pgSchema} CASCADE`);
    await d.end();
  };
} else {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labstock-bench-'));
  databaseUrl = path.join(dir, 'bench.sqlite');
  cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
}

const config = loadConfig({
  DATABASE_URL: databaseUrl,
  WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
  LOG_LEVEL: 'silent',
  RATE_LIMIT_PER_MINUTE: '0',
});
const handle = openDatabase(config.database, pgSchema ? { pgSchema } : {});
await migrateToLatest(handle.db);
const deps = { db: handle.db, config };

let onReceipt = null;
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.method === 'POST') onReceipt?.(performance.now());
    res.writeHead(204).end();
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}/hook`;

const system = systemActor('cli');
const org = await createOrganization(handle.db, system, { name: 'Bench' });
const user = await createUser(handle.db, system, {
  organizationId: org.id,
  email: 'bench@example.org',
  firstName: 'B',
  lastName: 'Ench',
  role: 'admin',
});
const lab = await createLab(handle.db, system, { organizationId: org.id, name: 'Bench lab', usesInstances: true });
const actor = { tokenId: 'bench', userId: user.id, organizationId: org.id, role: 'admin' };
const item = await createItem(deps, actor, { labId: lab.id, name: 'Bench item' }, [{ quantity: '1' }]);
const withInstance = await addInstance(deps, actor, item.id, { quantity: '1' });
await createWebhook(deps, actor, { lab_id: lab.id, url, event_types: ['inventory-item.updated'], is_signed: true });
const worker = createWorker({ db: handle.db, config, log: { info() {}, warn() {}, error: console.error, debug() {} }, pgSchema });
await worker.start();
await worker.idle();

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const latencies = [];
for (let i = 0; i < n; i++) {
  const arrived = new Promise((resolve) => {
    onReceipt = resolve;
  });
  await updateInstanceQuantity(deps, actor, item.id, withInstance.instances[0].id, { quantity: String(i + 2) });
  const committed = performance.now();
  const receivedAt = await arrived;
  onReceipt = null;
  latencies.push(receivedAt - committed);
  await new Promise((r) => setTimeout(r, 5));
}

onReceipt = null;
// The floor: the same receiver, a bare undici POST of the same size, one at a time.
const floor = [];
for (let i = 0; i < n; i++) {
  const t0 = performance.now();
  const res = await request(url, { method: 'POST', body: '{"x":1}', headers: { 'content-type': 'application/json' } });
  await res.body.dump();
  floor.push(performance.now() - t0);
}

await worker.stop();
await handle.close();
server.close();
await cleanup();
const f = (x) => `${x.toFixed(2)} ms`;
console.log(`database: ${handle.kind}, ${n} events, one at a time`);
console.log(`commit-to-receipt  p50 ${f(pct(latencies, 50))}  p99 ${f(pct(latencies, 99))}`);
console.log(`bare POST (floor)  p50 ${f(pct(floor, 50))}  p99 ${f(pct(floor, 99))}`);
console.log(`ratio p50 (floor / labstock): ${(pct(floor, 50) / pct(latencies, 50)).toFixed(3)}`);
