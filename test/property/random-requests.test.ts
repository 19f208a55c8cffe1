import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../helpers/harness.js';
import {
  fillPath,
  leakedSecrets,
  OPERATIONS,
  type Operation,
  pathParamNames,
  prepareTenant,
  type Snapshot,
  snapshotDb,
  snapshotDiff,
  type Tenant,
} from '../helpers/operations.js';

// Random bodies, query strings and ids against every public operation. Whatever arrives: never a 5xx, every
// error has message/code/request_id, and a refused request (4xx) leaves every row of the database as it was.

const NUM_RUNS = 150;

let h: Harness;
let A: Tenant;
let B: Tenant;
/** The database as it was after the last request that was allowed to change it. */
let current: Snapshot;
/** B's ids that A's own successful writes have stored as text (names, notes) and A may therefore read back. */
const echoed = new Set<string>();

beforeAll(async () => {
  h = await startHarness();
  B = await prepareTenant(h, h.b);
  A = await prepareTenant(h, h.a);
  current = await snapshotDb(h);
});
afterAll(() => h?.close());
// Each test starts from the database as it is, whatever an earlier failing test left behind.
beforeEach(async () => {
  current = await snapshotDb(h);
});

// --- arbitraries ----------------------------------------------------------------------------------------------

const nastyStrings = fc.constantFrom(
  '',
  ' ',
  '0',
  '-1',
  '1.5',
  'null',
  'true',
  'undefined',
  'NaN',
  '..',
  '../..',
  '%',
  '%00',
  '%ZZ',
  '\u0000',
  'a\u0000b',
  '\t\n',
  '\ufeff',
  '\u202e',
  '💥🧪',
  'Ω≈ç√',
  '𝕏'.repeat(40),
  'é'.normalize('NFD'),
  "'; DROP TABLE labs; --",
  '" OR 1=1 --',
  '<script>x</script>',
  '__proto__',
  'constructor',
  '9'.repeat(400),
  '1e400',
  '-0',
  '0x10',
  '{}',
  '[]',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '{00000000-0000-0000-0000-000000000000}',
);

const randomText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 1 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 1 },
  { arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 40 }), weight: 1 },
  // Few distinct characters, each of them troublesome somewhere (NUL, controls, escapes, bidi, astral, combining).
  {
    arbitrary: fc.string({
      unit: fc.constantFrom(
        '\u0000',
        '\u0001',
        '\n',
        ' ',
        'a',
        'Z',
        '0',
        '-',
        '%',
        '\\',
        '"',
        "'",
        'é',
        '\u0301',
        '😀',
        '\u202e',
        '\uffff',
      ),
      minLength: 1,
      maxLength: 12,
    }),
    weight: 3,
  },
  { arbitrary: nastyStrings, weight: 3 },
  // Long strings shrink to the shortest length that still fails.
  { arbitrary: fc.integer({ min: 1, max: 10_000 }).map((n) => 'x'.repeat(n)), weight: 1 },
);

/** Path segments inserted as they are, not percent-encoded: malformed escapes, dot segments. */
const rawSegments = fc.constantFrom('%', '%ZZ', '%E0%A4%A', '%C0%AF', '%00', '%2F', '..', '.', '%2e%2e', ';a=b', 'a%20b', '~', '%FF%FE');

const anyId = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.uuid(),
    fc.uuid().map((u) => u.toUpperCase()),
    fc.constantFrom(...A.allIds),
    fc.constantFrom(...B.allIds),
    fc.constantFrom(...B.allIds).map((u) => u.toUpperCase()),
    randomText,
  );

const hugeNumbers = fc.constantFrom(
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  -Number.MAX_SAFE_INTEGER,
  1e308,
  -1e308,
  Number.MIN_VALUE,
  1e21,
  2 ** 31,
  2 ** 63,
  -1,
  0,
  -0,
  0.1,
  1.5,
);

const deep = (depth: number, leaf: unknown): unknown => {
  let v: unknown = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

const weirdValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    hugeNumbers,
    randomText,
    randomText,
    randomText,
    fc.constant('\ud800 lone surrogate'),
    anyId(),
    fc.integer({ min: 1, max: 3000 }).map((d) => deep(d, 'x')),
    fc.array(randomText, { maxLength: 5 }),
    fc.constantFrom(
      true,
      false,
      null,
      {},
      [],
      [[]],
      { amount: '1250', currency: 'USD' },
      { amount: 1250, currency: 'usd' },
      ['order-request.*'],
      ['nope.*'],
    ),
  );

// Raw bodies that JSON.stringify would never write.
const rawBodies = fc.constantFrom(
  '',
  '{',
  '}',
  '[',
  'nul',
  '{"a":1,}',
  "{'a':1}",
  '{"quantity": 1e400}',
  '{"quantity": -1e400}',
  '{"quantity": 123456789012345678901234567890}',
  '[]',
  'null',
  'true',
  '"text"',
  '42',
  '\ufeff{}',
  '{"__proto__": {"polluted": true}}',
  '{"constructor": {"prototype": {"polluted": true}}}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"a":1,"a":2}',
  '['.repeat(20_000) + ']'.repeat(20_000),
  `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
  ' '.repeat(1000),
  `{"name":"${'z'.repeat(100_000)}"}`,
);

/** A body: random JSON, or the operation's valid body with one field replaced, removed or added. */
function bodyArb(op: Operation): fc.Arbitrary<string> {
  const valid = op.body!(A.ids);
  const fields = Object.keys(valid);
  // Every field some public body knows, so optional fields get random values too, plus ones none knows.
  const knownFields = [
    'lab_id',
    'type_id',
    'organization_id',
    'name',
    'vendor_product_id',
    'vendor_name',
    'catalog_number',
    'price',
    'quantity',
    'required_before',
    'notes',
    'status',
    'url',
    'event_types',
    'is_enabled',
    'is_verified',
    'is_signed',
  ];
  const extraFields = [...knownFields, 'extra', 'id', 'signing_key', 'item_name', '__proto__', 'constructor', ''];
  const replaced = fc.record({ field: fc.constantFrom(...fields, ...extraFields), value: weirdValue() }).map(({ field, value }) => {
    const body: Record<string, unknown> = { ...valid };
    Object.defineProperty(body, field, { value, enumerable: true, configurable: true, writable: true });
    return JSON.stringify(body);
  });
  return fc.oneof(
    { arbitrary: fc.constant(JSON.stringify(valid)), weight: 1 },
    { arbitrary: replaced, weight: 5 },
    {
      arbitrary: fc.constantFrom(...fields).map((field) => {
        const body: Record<string, unknown> = { ...valid };
        delete body[field];
        return JSON.stringify(body);
      }),
      weight: 1,
    },
    { arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)), weight: 1 },
    {
      arbitrary: fc
        .dictionary(fc.oneof(fc.constantFrom(...fields, ...extraFields), randomText), weirdValue(), { maxKeys: 6 })
        .map((v) => JSON.stringify(v)),
      weight: 1,
    },
    { arbitrary: rawBodies, weight: 1 },
  );
}

function queryArb(op: Operation): fc.Arbitrary<string> {
  const keys = fc.oneof(
    {
      arbitrary: fc.constantFrom(
        'page',
        'per_page',
        'lab_id',
        'organization_id',
        'name',
        'status',
        'status[]',
        ...Object.keys(op.filters ?? {}),
      ),
      weight: 5,
    },
    { arbitrary: fc.constantFrom('__proto__', 'constructor', 'hasOwnProperty', 'a[b]', 'page[]', ''), weight: 1 },
    { arbitrary: randomText, weight: 1 },
  );
  const values = fc.oneof(
    { arbitrary: fc.integer().map(String), weight: 1 },
    {
      arbitrary: fc.constantFrom(
        '0',
        '-1',
        '1',
        '2',
        '100',
        '101',
        '1000000000',
        '1000000001',
        '99999999999999999999',
        '1e400',
        '1.5',
        ' 1',
        'NaN',
        'Infinity',
      ),
      weight: 1,
    },
    { arbitrary: fc.constantFrom('CREATED', 'ORDERED', 'CREATED,RECEIVED', 'created', 'Reagent', 'REAGENT', 'Buffer'), weight: 1 },
    { arbitrary: anyId(), weight: 2 },
    { arbitrary: randomText, weight: 4 },
  );
  const pairs = fc
    .array(fc.tuple(keys, values), { maxLength: 5 })
    .map((ps) => ps.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));
  const raw = fc.constantFrom(
    '%',
    '%ZZ',
    'page=%E0%A4%A',
    '&&&',
    '=',
    'page',
    'page=1=2',
    'page=1&page=2',
    'lab_id&lab_id=',
    'status[]=CREATED&status=ORDERED',
    '?',
    '#x',
  );
  return fc.oneof({ arbitrary: pairs, weight: 4 }, { arbitrary: raw, weight: 1 }, { arbitrary: fc.constant(''), weight: 1 });
}

interface TokenChoice {
  label: string;
  token: string | null;
  ownerIsA: boolean;
  header?: 'bearer';
}

function tokenArb(): fc.Arbitrary<TokenChoice> {
  return fc.oneof(
    { arbitrary: fc.constant<TokenChoice>({ label: 'A admin', token: A.fixture.admin.token, ownerIsA: true }), weight: 8 },
    {
      arbitrary: fc.constant<TokenChoice>({ label: 'A admin (bearer)', token: A.fixture.admin.token, ownerIsA: true, header: 'bearer' }),
      weight: 1,
    },
    { arbitrary: fc.constant<TokenChoice>({ label: 'A member', token: A.fixture.member.token, ownerIsA: true }), weight: 2 },
    { arbitrary: fc.constant<TokenChoice>({ label: 'A outsider', token: A.fixture.outsider.token, ownerIsA: true }), weight: 1 },
    { arbitrary: fc.constant<TokenChoice>({ label: 'none', token: null, ownerIsA: false }), weight: 1 },
    // Header values are printable ASCII: no CR, LF or NUL.
    {
      arbitrary: randomText
        .filter((t) => t.trim() !== '' && /^[\x20-\x7e]*$/.test(t))
        .map((t) => ({ label: 'garbage', token: t, ownerIsA: false })),
      weight: 1,
    },
  );
}

const contentTypeArb = fc.oneof(
  { arbitrary: fc.constant('application/json'), weight: 10 },
  {
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/jsonx',
      'APPLICATION/JSON',
      'multipart/form-data; boundary=x',
    ),
    weight: 1,
  },
);

interface PathValue {
  value: string;
  raw: boolean;
}
interface RandomRequest {
  token: TokenChoice;
  params: Record<string, PathValue>;
  query: string;
  body?: string;
  contentType: string;
}

function requestArb(op: Operation): fc.Arbitrary<RandomRequest> {
  const names = pathParamNames(op.path);
  const own = op.params ? op.params(A.ids) : {};
  // Path ids here stay within what the router takes as a parameter (100 characters once percent-encoded); longer
  // and malformed segments have their own property below, so one router problem cannot hide a handler's.
  const slot = (name: string): fc.Arbitrary<PathValue> =>
    fc.oneof(
      { arbitrary: fc.constant({ value: own[name]!, raw: false }), weight: 6 },
      {
        arbitrary: anyId()
          .filter((v) => encodeURIComponent(v).length <= 100)
          .map((value) => ({ value, raw: false })),
        weight: 4,
      },
    );
  const params = fc.record(Object.fromEntries(names.map((n) => [n, slot(n)])) as Record<string, fc.Arbitrary<PathValue>>);
  return fc.record({
    token: tokenArb(),
    params,
    query: queryArb(op),
    body: op.body ? bodyArb(op) : fc.constant(undefined),
    contentType: contentTypeArb,
  }) as fc.Arbitrary<RandomRequest>;
}

// --- checks ---------------------------------------------------------------------------------------------------

function toInject(op: Operation, r: RandomRequest): InjectOptions {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const p = r.params[name]!;
    return p.raw ? p.value : fillPath(`{${name}}`, { [name]: p.value });
  });
  const url = path + (r.query ? `?${r.query}` : '');
  const headers: Record<string, string> = {};
  if (r.token.token !== null) {
    if (r.token.header === 'bearer') headers.authorization = `Bearer ${r.token.token}`;
    else headers['access-token'] = r.token.token;
  }
  if (r.body !== undefined) headers['content-type'] = r.contentType;
  return { method: op.method, url, headers, ...(r.body !== undefined ? { payload: r.body } : {}) };
}

function describeRequest(opts: InjectOptions, res: LightMyRequestResponse): string {
  const payload = typeof opts.payload === 'string' ? opts.payload.slice(0, 300) : '';
  return `${opts.method} ${String(opts.url).slice(0, 300)} ${JSON.stringify(opts.headers)} ${payload} -> ${res.statusCode} ${res.body.slice(0, 400)}`;
}

async function check(op: Operation, r: RandomRequest): Promise<void> {
  const opts = toInject(op, r);
  const res = await h.call(null, opts); // the token, if any, is already in opts.headers
  const where = describeRequest(opts, res);

  expect(res.statusCode, where).toBeLessThan(500);
  expect(res.statusCode, where).toBeGreaterThanOrEqual(200);
  if (res.statusCode >= 400) {
    expect(String(res.headers['content-type']), where).toMatch(/^application\/json/);
    const body = res.json();
    expect(body, where).toEqual(
      expect.objectContaining({
        message: expect.any(String),
        code: expect.stringMatching(/^[a-z]+(_[a-z]+)*$/),
        request_id: expect.any(String),
      }),
    );
    expect(body.message.length, where).toBeGreaterThan(0);
    expect(body.request_id, where).toBe(res.headers['x-request-id']);
  }
  const requestText = `${opts.url} ${opts.payload ?? ''}`;
  if (r.token.ownerIsA) {
    // A B id that A itself wrote into its own data earlier (as a name, say) is an echo, not a leak.
    expect(
      leakedSecrets(
        res,
        B.secrets.filter((x) => !echoed.has(x)),
        requestText,
      ),
      where,
    ).toEqual([]);
  }
  if (res.statusCode < 300 && opts.method !== 'GET') for (const x of B.secrets) if (requestText.includes(x)) echoed.add(x);

  const after = await snapshotDb(h);
  if (res.statusCode >= 400) {
    const diff = snapshotDiff(current, after);
    expect(diff, `a refused request changed the database: ${where}`).toBeNull();
  }
  current = after;
}

describe('random requests never break the service', () => {
  it.each(OPERATIONS.map((op) => [op.key, op] as const))('%s', async (_key, op) => {
    await fc.assert(
      fc.asyncProperty(requestArb(op), (r) => check(op, r)),
      { numRuns: NUM_RUNS, endOnFailure: false },
    );
  });
});

describe('a NUL or control character in any text input', () => {
  // Deterministic companion of the properties above: every text a client controls, once, with U+0000 in it
  // (PostgreSQL text cannot hold it, so it must be refused before it reaches the database) and other controls.
  const VALUES = ['a\u0000b', '\u0000', 'line\nbreak\u0001\u001f'];
  const textFields = [
    'name',
    'notes',
    'vendor_name',
    'catalog_number',
    'url',
    'status',
    'quantity',
    'required_before',
    'lab_id',
    'type_id',
    'organization_id',
    'vendor_product_id',
  ];
  const admin = (): TokenChoice => ({ label: 'A admin', token: A.fixture.admin.token, ownerIsA: true });

  it.each(OPERATIONS.map((op) => [op.key, op] as const))('%s: never a 5xx, 4xx changes nothing', async (_key, op) => {
    const own = op.params ? op.params(A.ids) : {};
    const ownParams = Object.fromEntries(Object.entries(own).map(([k, v]) => [k, { value: v, raw: false }]));
    const requests: RandomRequest[] = [];
    for (const value of VALUES) {
      for (const key of new Set(['lab_id', 'organization_id', 'name', 'status', 'page', ...Object.keys(op.filters ?? {})])) {
        requests.push({
          token: admin(),
          params: ownParams,
          query: `${key}=${encodeURIComponent(value)}`,
          contentType: 'application/json',
          ...(op.body ? { body: JSON.stringify(op.body(A.ids)) } : {}),
        });
      }
      for (const name of pathParamNames(op.path)) {
        requests.push({
          token: admin(),
          params: { ...ownParams, [name]: { value, raw: false } },
          query: '',
          contentType: 'application/json',
          ...(op.body ? { body: JSON.stringify(op.body(A.ids)) } : {}),
        });
      }
      if (op.body) {
        const valid = op.body(A.ids);
        for (const field of textFields)
          requests.push({
            token: admin(),
            params: ownParams,
            query: '',
            contentType: 'application/json',
            body: JSON.stringify({ ...valid, [field]: value }),
          });
        if (op.key.includes('webhooks')) {
          requests.push({
            token: admin(),
            params: ownParams,
            query: '',
            contentType: 'application/json',
            body: JSON.stringify({ ...valid, url: `https://hooks.example.org/${value}` }),
          });
        }
        if ('price' in valid) {
          requests.push({
            token: admin(),
            params: ownParams,
            query: '',
            contentType: 'application/json',
            body: JSON.stringify({ ...valid, price: { amount: value, currency: 'USD' } }),
          });
          requests.push({
            token: admin(),
            params: ownParams,
            query: '',
            contentType: 'application/json',
            body: JSON.stringify({ ...valid, price: { amount: '100', currency: value } }),
          });
        }
        if ('event_types' in valid || op.key.includes('webhooks')) {
          requests.push({
            token: admin(),
            params: ownParams,
            query: '',
            contentType: 'application/json',
            body: JSON.stringify({ ...valid, event_types: [value] }),
          });
        }
      }
    }
    expect(requests.length).toBeGreaterThan(0);
    const failures: string[] = [];
    for (const r of requests) {
      try {
        await check(op, r);
      } catch (e) {
        failures.push((e as Error).message.split('\n')[0]!.slice(0, 400));
        current = await snapshotDb(h);
      }
    }
    expect(failures.length, `${failures.length} of ${requests.length} requests failed:\n${failures.join('\n')}`).toBe(0);
  });
});

describe('path segments the router itself refuses', () => {
  const withParams = OPERATIONS.filter((op) => pathParamNames(op.path).length > 0);
  async function probe(segment: fc.Arbitrary<PathValue>): Promise<void> {
    const arb = fc.record({
      op: fc.constantFrom(...withParams),
      value: segment,
      slot: fc.nat(1),
      token: tokenArb(),
      query: queryArb(OPERATIONS[0]!),
    });
    await fc.assert(
      fc.asyncProperty(arb, async ({ op, value, slot, token, query }) => {
        const names = pathParamNames(op.path);
        const target = names[Math.min(slot, names.length - 1)];
        const params = Object.fromEntries(names.map((n) => [n, n === target ? value : { value: op.params!(A.ids)[n]!, raw: false }]));
        await check(op, {
          token,
          params,
          query,
          ...(op.body ? { body: JSON.stringify(op.body(A.ids)) } : {}),
          contentType: 'application/json',
        });
      }),
      { numRuns: NUM_RUNS },
    );
  }

  it('malformed percent-escapes in an id get the standard error body, never a 5xx', async () => {
    await probe(rawSegments.map((value) => ({ value, raw: true })));
  });

  it('ids of any length (beyond 100 characters too) get the standard error body, never a 5xx', async () => {
    await probe(
      fc.oneof(
        fc.integer({ min: 1, max: 5_000 }).map((n) => ({ value: 'x'.repeat(n), raw: false })),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 200 }).map((value) => ({ value, raw: false })),
      ),
    );
  });
});

describe('the generators reach the interesting cases', () => {
  it('a valid request succeeds and a B id is refused, through the same checks', async () => {
    const op = OPERATIONS.find((o) => o.key === 'PUT /order-requests/{id}')!;
    const created = await h.call(A.fixture.admin.token, {
      method: 'POST',
      url: '/order-requests',
      payload: OPERATIONS.find((o) => o.key === 'POST /order-requests')!.body!(A.ids),
    });
    expect(created.statusCode, created.body).toBe(201);
    current = await snapshotDb(h);
    const before = current;
    const token = { label: 'A admin', token: A.fixture.admin.token, ownerIsA: true };
    await check(op, {
      token,
      params: { id: { value: created.json().id, raw: false } },
      query: '',
      body: JSON.stringify({ status: 'CANCELLED' }),
      contentType: 'application/json',
    });
    expect(snapshotDiff(before, current)).toMatch(/order_requests/);
    const res = await h.call(A.fixture.admin.token, {
      method: 'PUT',
      url: `/order-requests/${B.ids.orderId}`,
      payload: { status: 'CANCELLED' },
    });
    expect(res.statusCode).toBe(404);
  });
});
