// Shared by the crash-safety and multi-worker delivery tests: a real webhook created through the service, events
// committed through the real outbox (emitEvent fans out to deliveries in the caller's transaction), and
// `labstock worker` child processes (dist/cli/main.js) that the tests start, kill and always clean up.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { authenticate } from '../../src/accounts/service.js';
import { emitEvent } from '../../src/events/outbox.js';
import type { Actor } from '../../src/shared/actor.js';
import { type Config, loadConfig, parseDatabaseUrl } from '../../src/shared/config.js';
import type { ServiceDeps } from '../../src/shared/deps.js';
import type { Webhook } from '../../src/webhooks/schemas.js';
import { createWebhook } from '../../src/webhooks/service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { type OrgFixture, seedOrganization } from '../helpers/fixtures.js';
import { TEST_ENV } from '../helpers/harness.js';
import type { Receiver } from '../helpers/receiver.js';

export const CLI = path.resolve('dist/cli/main.js');
export const dbIsPostgres = parseDatabaseUrl(process.env.DATABASE_URL).kind === 'postgres';

export interface Stream {
  database: TestDatabase;
  config: Config;
  deps: ServiceDeps;
  org: OrgFixture;
  actor: Actor;
  webhook: Webhook;
  /** Environment for a `labstock worker` child on the same database (PostgreSQL: the test's schema). */
  childEnv: NodeJS.ProcessEnv;
}

/** The DATABASE_URL a child process needs to see this test's data (a PostgreSQL schema via search_path). */
export function childDatabaseUrl(database: TestDatabase): string {
  if (!database.pgSchema) return database.url;
  return `${database.url}${database.url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${database.pgSchema}`)}`;
}

/** A fresh database with one organization and one organization-wide webhook (all event types) to `receiver`. */
export async function openStream(tag: string, receiver: Receiver, workerEnv: Record<string, string>): Promise<Stream> {
  const database = await createTestDatabase();
  try {
    const config = loadConfig({ ...TEST_ENV, WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32', DATABASE_URL: database.url });
    const deps: ServiceDeps = { db: database.handle.db, config };
    const org = await seedOrganization(deps, tag);
    const actor = await authenticate(deps.db, org.admin.token);
    if (!actor) throw new Error('the seeded admin token does not authenticate');
    const webhook = await createWebhook(deps, actor, { organization_id: org.orgId, url: receiver.url, name: `stream ${tag}` });
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      ...TEST_ENV,
      LOG_LEVEL: 'info',
      WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32',
      ...workerEnv,
      DATABASE_URL: childDatabaseUrl(database),
    };
    return { database, config, deps, org, actor, webhook, childEnv };
  } catch (err) {
    await database.drop();
    throw err;
  }
}

/**
 * Commits `count` events through the real outbox, `perTransaction` to a transaction, and returns their ids in
 * commit order. Each emitEvent fans out to the webhook in the same transaction (and NOTIFYs on PostgreSQL).
 */
export async function commitEvents(s: Stream, count: number, perTransaction: number, firstSeq = 0): Promise<string[]> {
  const ids: string[] = [];
  for (let done = 0; done < count; done += perTransaction) {
    const n = Math.min(perTransaction, count - done);
    const batch = await s.deps.db.transaction().execute(async (trx) => {
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        const seq = firstSeq + done + i;
        const event = await emitEvent(trx, s.config, {
          type: 'inventory-item.updated',
          organizationId: s.org.orgId,
          labId: s.org.migratedLab.id,
          resource: { id: s.org.migratedLab.itemId, seq },
        });
        out.push(event.id);
      }
      return out;
    });
    ids.push(...batch);
  }
  return ids;
}

/** How many times each webhook-id (the event id, stable across retries) arrived at the receiver. */
export function arrivals(receiver: Receiver): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of receiver.posts) {
    const id = String(r.headers['webhook-id']);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

export async function waitUntil(what: string, timeoutMs: number, check: () => boolean | Promise<boolean>, everyMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

const spawned = new Set<ChildProcess>();
const alive = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;
// Last resort if the test process itself goes away without running afterAll: never leave a worker behind.
process.once('exit', () => {
  for (const c of spawned) if (alive(c)) c.kill('SIGKILL');
});

/** One `labstock worker` child process, its JSON log lines, and the worker id it announced. */
export class WorkerProcess {
  readonly child: ChildProcess;
  readonly logs: { level: number; msg: string; [k: string]: unknown }[] = [];
  readonly stderr: string[] = [];
  /** Resolves with the worker id from the "delivery worker started" log line. */
  readonly started: Promise<string>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(
    env: NodeJS.ProcessEnv,
    readonly name: string,
  ) {
    this.child = spawn(process.execPath, [CLI, 'worker'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    spawned.add(this.child);
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    readline.createInterface({ input: this.child.stderr! }).on('line', (line) => this.stderr.push(line));
    this.started = new Promise((resolve, reject) => {
      readline.createInterface({ input: this.child.stdout! }).on('line', (line) => {
        try {
          const entry = JSON.parse(line) as WorkerProcess['logs'][number];
          this.logs.push(entry);
          if (entry.msg === 'delivery worker started') resolve(String(entry.worker));
        } catch {
          this.stderr.push(`(stdout) ${line}`);
        }
      });
      void this.exited.then(({ code, signal }) =>
        reject(new Error(`${name} exited (${code ?? signal}) before starting: ${this.stderr.join('\n')}`)),
      );
    });
    this.started.catch(() => undefined);
  }

  get running(): boolean {
    return alive(this.child);
  }

  /** Error-level (and worse) log lines: a loop error or an attempt that failed unexpectedly. */
  get errors(): string[] {
    return [...this.logs.filter((l) => l.level >= 50).map((l) => JSON.stringify(l)), ...this.stderr];
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (this.running) this.child.kill(signal);
    await this.exited;
  }

  /** SIGTERM (finish attempts in flight, exit 0), SIGKILL if it does not stop within `graceMs`. */
  async stop(graceMs = 10_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.running) this.child.kill('SIGTERM');
    const timer = setTimeout(() => {
      if (this.running) this.child.kill('SIGKILL');
    }, graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Kills every worker process these tests started that is still running (afterAll, even after a failure). */
export async function killAllWorkers(): Promise<void> {
  await Promise.all(
    [...spawned].map(async (c) => {
      if (alive(c)) {
        const gone = new Promise((r) => c.once('exit', r));
        c.kill('SIGKILL');
        await gone;
      }
      spawned.delete(c);
    }),
  );
}
