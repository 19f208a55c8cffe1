// The authentication step alone (docs/decisions/0016-auth-cache.md): CPU per call of authenticate() for a token,
// looked up in the database (no cache) against answered by the authentication cache. Five runs of 20,000 calls
// each after a warm-up; prints the runs sorted, in µs/call, and the load average (other work on the machine
// inflates both alike).
//   npm run build && node bench/auth-step.mjs                                        (SQLite)
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node bench/auth-step.mjs
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createAuthCache } from '../dist/accounts/auth-cache.js';
import { authenticate, createOrganization, createToken, createUser } from '../dist/accounts/service.js';
import { systemActor } from '../dist/shared/actor.js';
import { loadConfig, parseDatabaseUrl } from '../dist/shared/config.js';
import { migrateToLatest, openDatabase } from '../dist/shared/db/database.js';

const target = parseDatabaseUrl(process.env.DATABASE_URL);
let databaseUrl;
let pgSchema;
let cleanup;
if (target.kind === 'postgres') {
  pgSchema = `bench_auth_${Date.now().toString(36)}`;
  const admin = async (q) => {
    const c = new pg.Client({ connectionString: target.url });
    await c.connect();
    await c.query(q);
    await c.end();
  };
  await admin(`CREATE SCHEMA ${pgSchema}`);
  databaseUrl = target.url;
  cleanup = () => admin(`DROP SCHEMA ${pgSchema} CASCADE`);
} else {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labstock-bench-'));
  databaseUrl = path.join(dir, 'bench.sqlite');
  cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
}

const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
const handle = openDatabase(config.database, pgSchema ? { pgSchema } : {});
await migrateToLatest(handle.db);
const cli = systemActor('cli');
const org = await createOrganization(handle.db, cli, { name: 'Bench' });
const user = await createUser(handle.db, cli, { organizationId: org.id, email: 'bench@example.org', firstName: 'B', lastName: 'E' });
const { token } = await createToken(handle.db, cli, { userId: user.id, organizationId: org.id });
const auth = createAuthCache(handle.db, config, { warn: () => undefined });
await auth.start();

async function measure(label, call) {
  for (let i = 0; i < 5000; i++) await call();
  const runs = [];
  for (let k = 0; k < 5; k++) {
    const before = process.cpuUsage();
    for (let i = 0; i < 20_000; i++) await call();
    const used = process.cpuUsage(before);
    runs.push((used.user + used.system) / 20_000);
  }
  runs.sort((a, b) => a - b);
  console.log(`${label}: ${runs.map((r) => r.toFixed(1)).join(' ')} µs/call`);
}

console.log(
  `${target.kind}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
await measure('database lookup', () => authenticate(handle.db, token));
await measure('cache hit      ', () => authenticate(handle.db, token, auth.cache));
await auth.close();
await handle.close();
await cleanup();
