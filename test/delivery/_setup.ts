// Shared by the delivery tests that drive an in-process worker through the real API (failures, retries, signing
// and headers, matching, handshake and rotation): one harness per file and per app-level setting, shared by that
// file's tests; each test starts its own worker with the settings it needs and gets fresh receivers, and afterEach
// stops them and removes the test's webhooks. Plus the API calls and waits those tests make.
import { afterAll, afterEach, expect } from 'vitest';
import type { Worker } from '../../src/delivery/worker.js';
import { type Harness, startHarness } from '../helpers/harness.js';
import { Receiver } from '../helpers/receiver.js';

/** A webhook as the API returns it (the fields these tests read). */
export interface Hook {
  id: string;
  url: string;
  name: string | null;
  event_types: string[];
  is_enabled: boolean;
  is_verified: boolean;
  is_signed: boolean;
  signing_key: string;
}
export interface LogEntry {
  attempted_at: string;
  status_code: number | null;
  outcome: string;
  error: string | null;
  response_body: string | null;
  duration_ms: number;
}
export interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  completed_at: string | null;
  log: LogEntry[];
}

export interface DeliverySuite {
  /** The shared harness; `env` holds worker settings, except WEBHOOK_REQUIRE_VERIFICATION, which the API reads. */
  harness(env?: Record<string, string>): Promise<Harness>;
  /** A started receiver, stopped after the test. */
  receiver(): Promise<Receiver>;
  /** The receivers afterEach will stop; a test that stops one itself takes it out. */
  receivers: Receiver[];
  /**
   * Runs `stop` when the test ends, before the rows are deleted: a worker a test starts itself (onTestFinished
   * runs after afterEach, so a worker stopped there would still be claiming and recording while they go).
   */
  stopFirst(stop: () => Promise<unknown>): void;
  /** `receiverCount` started receivers and the shared harness for `env`. */
  setup(env?: Record<string, string>, receiverCount?: number): Promise<{ h: Harness; rx: Receiver[] }>;
  /** PUT an instance quantity in lab A's migrated lab: one com.labstock.inventory-item.updated event. */
  changeInstance(hh: Harness): Promise<Record<string, unknown>>;
}

/**
 * Registers the file's afterEach (stop this test's workers and receivers, delete every webhook, delivery and
 * attempt) and afterAll (close the harnesses); call it once, at the top level of a test file. `baseEnv` is the
 * file's settings, under each harness's own.
 */
export function deliverySuite(baseEnv: Record<string, string>): DeliverySuite {
  const harnesses = new Map<string, Promise<Harness>>();
  const workers: Worker[] = [];
  const receivers: Receiver[] = [];
  const stops: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    await Promise.all([...workers.splice(0).map((w) => w.stop()), ...stops.splice(0).map((stop) => stop())]);
    await Promise.all(receivers.splice(0).map((r) => r.stop()));
    for (const p of harnesses.values()) {
      const { db } = (await p).deps;
      await db.deleteFrom('webhook_attempts').execute();
      await db.deleteFrom('webhook_deliveries').execute();
      await db.deleteFrom('webhooks').execute();
    }
  });
  afterAll(async () => {
    await Promise.all([...harnesses.values()].map(async (p) => (await p).close()));
  });

  async function harness(env: Record<string, string> = {}): Promise<Harness> {
    const { WEBHOOK_REQUIRE_VERIFICATION, ...workerEnv } = env;
    const appEnv: Record<string, string> = WEBHOOK_REQUIRE_VERIFICATION ? { WEBHOOK_REQUIRE_VERIFICATION } : {};
    const key = JSON.stringify(appEnv);
    if (!harnesses.has(key)) harnesses.set(key, startHarness({ ...baseEnv, ...appEnv }));
    const base = await harnesses.get(key)!;
    return {
      ...base,
      async startWorker(extra: Record<string, string> = {}) {
        const worker = await base.startWorker({ ...workerEnv, ...extra });
        workers.push(worker);
        return worker;
      },
    };
  }

  async function receiver(): Promise<Receiver> {
    const r = await new Receiver().start();
    receivers.push(r);
    return r;
  }

  async function setup(env: Record<string, string> = {}, receiverCount = 1): Promise<{ h: Harness; rx: Receiver[] }> {
    const rx: Receiver[] = [];
    for (let i = 0; i < receiverCount; i += 1) rx.push(await receiver());
    return { h: await harness(env), rx };
  }

  let qty = 10;
  async function changeInstance(hh: Harness): Promise<Record<string, unknown>> {
    qty += 1;
    const lab = hh.a.migratedLab;
    const res = await hh.call(hh.a.admin.token, {
      method: 'PUT',
      url: `/inventory-items/${lab.itemId}/instances/${lab.instanceIds[0]}`,
      payload: { quantity: String(qty) },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  const stopFirst = (stop: () => Promise<unknown>) => void stops.push(stop);
  return { harness, receiver, receivers, setup, changeInstance, stopFirst };
}

/** POST /webhooks as `token`, with `payload` as given; expects 201. */
export async function createHookAs(hh: Harness, token: string, payload: Record<string, unknown>): Promise<Hook> {
  const res = await hh.call(token, { method: 'POST', url: '/webhooks', payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** GET /webhooks/{id} as `token`; expects 200. */
export async function getHookAs(hh: Harness, token: string, id: string): Promise<Hook> {
  const res = await hh.call(token, { method: 'GET', url: `/webhooks/${id}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** GET /webhooks/{id}/deliveries{query} as `token`; expects 200. */
export async function deliveriesAs(hh: Harness, token: string, hookId: string, query = '?per_page=100'): Promise<Delivery[]> {
  const res = await hh.call(token, { method: 'GET', url: `/webhooks/${hookId}/deliveries${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** An organization-wide webhook of org A (unless `payload` says otherwise), created by A's admin. */
export const createHook = (hh: Harness, payload: Record<string, unknown>): Promise<Hook> =>
  createHookAs(hh, hh.a.admin.token, { organization_id: hh.a.orgId, ...payload });

export const getHook = (hh: Harness, id: string): Promise<Hook> => getHookAs(hh, hh.a.admin.token, id);

/** The webhook's delivery log (up to 100 deliveries), read by A's admin. */
export const deliveries = (hh: Harness, hookId: string): Promise<Delivery[]> => deliveriesAs(hh, hh.a.admin.token, hookId);

/** Polls `probe` every 20 ms until it returns something truthy; throws after `timeoutMs`. */
export async function waitUntil<T>(probe: () => Promise<T | null | undefined | false>, what: string, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A claim's statement, as openDatabase's onQuery hook sees it: an UPDATE that leases (SQLite), or the same UPDATE in
 * a CTE that also loads the claimed batch's events and webhooks (PostgreSQL: claimForSend in
 * src/delivery/claim-repository.ts).
 */
export const isClaim = (text: string): boolean =>
  /^(with claimed as \(\s*)?update "?webhook_deliveries"? set "?lease_until"?/i.test(text.trimStart());
