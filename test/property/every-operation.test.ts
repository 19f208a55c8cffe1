import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../helpers/harness.js';
import { expectHoldingsTrue } from '../helpers/holdings.js';
import { leakedSecrets, prepareTenant, snapshotDb, snapshotDiff, type Tenant } from '../helpers/operations.js';
import { expectDocumentsFresh } from '../helpers/stored-documents.js';
import { type DocOperation, type JsonSchema, operationsOf, valueFor } from './_schema-values.js';

// Every operation the OpenAPI document lists (public and application ones alike), called with bodies built from
// its own request schema and then bent (a field replaced by something hostile, a required one dropped, an unknown
// one added), with ids of the caller's own tenant, of the other tenant and made up. Whatever arrives: never a 5xx,
// every error has message/code/request_id, a refused request changes nothing, and the other tenant's ids never
// come back. FUZZ_RUNS sets the requests per operation (`npm run fuzz` runs the long version on both databases).

const RUNS = Number(process.env.FUZZ_RUNS ?? 12);

let h: Harness;
let A: Tenant;
let B: Tenant;
let ops: DocOperation[];
const echoed = new Set<string>();
let sent = 0;
/** Whether the operation being fuzzed had a change accepted since its stored documents were last compared. */
let accepted = false;
/** Answers by class, printed at the end: a run that only ever reached 4xx would fuzz nothing behind the checks. */
const statuses: Record<string, number> = {};

beforeAll(async () => {
  h = await startHarness();
  B = await prepareTenant(h, h.b);
  A = await prepareTenant(h, h.a);
  ops = operationsOf(h.app.swagger() as never);
});
afterAll(() => h?.close());

const hostile = fc.constantFrom<unknown>(
  '',
  ' ',
  '\u0000',
  '\ud800',
  'a\udc00b',
  '💥',
  '9'.repeat(400),
  '1e400',
  '-1',
  '0',
  '0.000000000000000000001',
  null,
  true,
  0,
  -1,
  1e308,
  [],
  {},
  [[[]]],
  { amount: '1', currency: 'XXX' },
  '__proto__',
  "'; DROP TABLE labs; --",
  '00000000-0000-0000-0000-000000000000',
  'x'.repeat(70_000),
  '2026-02-30',
  '2026-13-01T00:00:00Z',
);

interface Call {
  token: string | null;
  ownerIsA: boolean;
  idempotencyKey: string | null;
  params: Record<string, string>;
  query: Record<string, string>;
  body?: unknown;
  raw?: string;
}

/** Ids that fit a parameter: mostly the caller's own of the right kind, then the other tenant's, then made-up ones. */
function idFor(name: string): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...preferredIds(name, A)), weight: 8 },
    { arbitrary: fc.constantFrom(...A.allIds), weight: 1 },
    { arbitrary: fc.constantFrom(...preferredIds(name, B), ...B.allIds), weight: 2 },
    { arbitrary: fc.oneof(fc.uuid(), fc.constantFrom('x', '%', '..', '1', 'NaN', 'ffffffff-ffff-ffff-ffff-ffffffffffff')), weight: 1 },
  );
}

/**
 * The tenant's ids whose kind matches a field name or the path segment before a parameter ("labs:id"), so that
 * valid calls happen often enough to reach the handlers' own checks.
 */
function preferredIds(name: string, t: Tenant): string[] {
  const i = t.ids;
  const n = name.toLowerCase();
  const kinds: [RegExp, string[]][] = [
    [/instance/, [i.instanceId]],
    [/location|parent/, t.fixture.migratedLab.locationIds],
    [/webhook/, [i.webhookId]],
    [/order-items|shipments|products|shop|deliver/, [i.orderId]],
    [/order|request/, [i.orderId]],
    [/lab/, [i.legacyLabId, i.migratedLabId]],
    [/type/, [i.legacyTypeId, i.migratedTypeId]],
    [/organization/, [i.orgId]],
    [/item/, [i.legacyItemId, i.migratedItemId]],
  ];
  return kinds.find(([re]) => re.test(n))?.[1] ?? [i.legacyItemId, i.migratedItemId, i.orderId, i.webhookId];
}

function bodyArb(schema: JsonSchema): fc.Arbitrary<unknown> {
  const base = valueFor(schema, (field) => idFor(field));
  return fc.oneof(
    { arbitrary: base, weight: 3 },
    {
      arbitrary: fc.tuple(base, fc.string({ maxLength: 20 }), hostile, fc.nat()).map(([b, extra, value, pick]) => {
        if (b === null || typeof b !== 'object' || Array.isArray(b)) return value;
        const copy: Record<string, unknown> = { ...(b as Record<string, unknown>) };
        const keys = Object.keys(copy);
        const mode = pick % 3;
        if (mode === 0 && keys.length) copy[keys[pick % keys.length]!] = value;
        else if (mode === 1 && keys.length) delete copy[keys[pick % keys.length]!];
        else Object.defineProperty(copy, extra || 'unknown_field', { value, enumerable: true, configurable: true, writable: true });
        return copy;
      }),
      weight: 4,
    },
    { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 },
  );
}

const rawBodies = fc.constantFrom(
  '{',
  '[]',
  'null',
  '"x"',
  '{"a":"\\ud800"}',
  '{"a":1,"a":2}',
  `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`,
);

function callArb(op: DocOperation): fc.Arbitrary<Call> {
  const tokens = fc.constantFrom(
    ...Array(6).fill({ token: A.fixture.admin.token, ownerIsA: true }),
    { token: A.fixture.member.token, ownerIsA: true },
    { token: A.fixture.member.token, ownerIsA: true },
    { token: A.fixture.outsider.token, ownerIsA: true },
    { token: null, ownerIsA: false },
    { token: 'not-a-token', ownerIsA: false },
  );
  const segmentBefore = (p: string) => op.path.split(`/{${p}}`)[0]!.split('/').pop() ?? '';
  const params = fc.record(
    Object.fromEntries(op.pathParams.map((p) => [p, idFor(`${segmentBefore(p)}:${p}`)])) as Record<string, fc.Arbitrary<string>>,
  );
  const query = fc.dictionary(
    fc.oneof(fc.constantFrom(...op.queryParams, 'page', 'per_page'), fc.constantFrom('__proto__', 'x', 'status[]')),
    fc.oneof(
      fc.constantFrom('1', '0', '-1', '101', 'true', 'CREATED', 'Reagent', '2027-01-01', '%', 'name', '-name'),
      idFor('q'),
      fc.string({ maxLength: 12 }),
    ),
    { maxKeys: 3 },
  );
  const body = op.bodySchema
    ? fc.oneof(
        { arbitrary: bodyArb(op.bodySchema).map((b) => ({ body: b })), weight: 9 },
        { arbitrary: rawBodies.map((raw) => ({ raw })), weight: 1 },
      )
    : fc.oneof(
        { arbitrary: fc.constant({}), weight: 8 },
        { arbitrary: fc.jsonValue({ maxDepth: 2 }).map((b) => ({ body: b })), weight: 1 },
        { arbitrary: rawBodies.map((raw) => ({ raw })), weight: 1 },
      );
  const idempotencyKey = fc.oneof(
    { arbitrary: fc.constant(null), weight: 3 },
    { arbitrary: fc.uuid(), weight: 1 },
    { arbitrary: fc.constantFrom('k', ' ', 'é'), weight: 1 },
  );
  return fc
    .record({ tok: tokens, params, query, body, idempotencyKey })
    .map(({ tok, params: p, query: q, body: b, idempotencyKey: key }) => ({ ...tok, params: p, query: q, idempotencyKey: key, ...b }));
}

function toInject(op: DocOperation, c: Call): InjectOptions {
  const url = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(c.params[name] ?? 'x'));
  const headers: Record<string, string> = {};
  if (c.token) headers['access-token'] = c.token;
  if (c.idempotencyKey !== null) headers['idempotency-key'] = c.idempotencyKey;
  const payload = c.raw ?? (c.body === undefined ? undefined : JSON.stringify(c.body));
  if (payload !== undefined) headers['content-type'] = 'application/json';
  return { method: op.method as InjectOptions['method'], url, query: c.query, headers, ...(payload !== undefined ? { payload } : {}) };
}

/**
 * A 202 from POST /labs/{id}/migration goes on converting the lab in the background of this process; its writes
 * must not be charged to the next request, so every check first waits until no lab migration is running.
 */
async function migrationsSettled(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const running = await h.deps.db
      .selectFrom('labs')
      .select('id')
      .where('migration_started_at', 'is not', null)
      .where('migration_finished_at', 'is', null)
      .executeTakeFirst();
    if (!running) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('a lab migration did not finish within 5 s');
}

async function check(op: DocOperation, c: Call): Promise<void> {
  await migrationsSettled();
  const before = await snapshotDb(h);
  const opts = toInject(op, c);
  const res = await h.app.inject(opts);
  sent++;
  const kind = `${String(res.statusCode)[0]}xx`;
  statuses[kind] = (statuses[kind] ?? 0) + 1;
  const where = `${opts.method} ${opts.url} ${JSON.stringify(c.query)} ${String(opts.payload ?? '').slice(0, 300)} -> ${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, where).toBeLessThan(500);
  if (res.statusCode >= 400) {
    expect(res.json(), where).toEqual(
      expect.objectContaining({ message: expect.any(String), code: expect.any(String), request_id: expect.any(String) }),
    );
  }
  const requestText = `${opts.url} ${JSON.stringify(c.query)} ${opts.payload ?? ''}`;
  if (c.ownerIsA)
    expect(
      leakedSecrets(
        res,
        B.secrets.filter((x) => !echoed.has(x)),
        requestText,
      ),
      where,
    ).toEqual([]);
  if (res.statusCode < 300 && op.method !== 'GET') for (const x of B.secrets) if (requestText.includes(x)) echoed.add(x);
  if (res.statusCode < 300 && op.method !== 'GET') accepted = true;
  if (res.statusCode >= 400) {
    // A refused sign-in (or password change) is counted for throttling (docs/auth.md): that is its only write.
    const after = await snapshotDb(h);
    delete before.sign_in_throttle;
    delete after.sign_in_throttle;
    expect(snapshotDiff(before, after), `a refused request changed the database: ${where}`).toBeNull();
  }
}

describe('every documented operation, fuzzed', () => {
  it('the document lists the application operations too', () => {
    expect(ops.length).toBeGreaterThan(40);
  });

  // Deletions last, so the other operations find the tenant's resources in place most of the time.
  it.each([1, 2])(
    'round %i: every operation survives random calls',
    async () => {
      const ordered = [...ops].sort((x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'));
      for (const op of ordered) {
        await fc.assert(
          fc.asyncProperty(callArb(op), (c) => check(op, c)),
          { numRuns: Math.ceil(RUNS / 2), endOnFailure: true },
        );
        // Whatever the operation's accepted changes did, every item's stored document is still a fresh render
        // (src/inventory/stored/); compared once per operation that changed something, not after each request.
        if (accepted) {
          accepted = false;
          await migrationsSettled();
          await expectDocumentsFresh(h).catch((err: Error) => {
            throw new Error(`after ${op.method} ${op.path}: ${err.message}`);
          });
          // And the control-area totals still add up to the containers (src/hazards/holdings-repository.ts).
          await expectHoldingsTrue(h.deps.db, `after ${op.method} ${op.path}`);
        }
      }
      // A round calls every operation a dozen times: with ~170 operations that is longer than the default minute on a
      // busy 2-core machine. Not a timed assertion, only the guard against a hang.
    },
    300_000,
  );

  it('sent as many requests as asked, and many of them succeeded', () => {
    console.log(`fuzzed ${sent} requests over ${ops.length} operations: ${JSON.stringify(statuses)}`);
    expect(sent).toBeGreaterThanOrEqual(ops.length * RUNS);
    expect(statuses['2xx'] ?? 0).toBeGreaterThan(sent / 10);
  });
});
