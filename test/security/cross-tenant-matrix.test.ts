import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
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
import { givePassword, type Session, signIn, withSession } from '../helpers/sessions.js';
import { useHarness } from '../helpers/use-harness.js';

// Org A's tokens against org B's ids, for every public operation: 404 or an empty list, never one of B's ids in a
// response, and not a single row of the database changed. The same again with A's sign-in sessions (the cookie and
// the CSRF token), which act exactly as the same users' tokens do.

let A: Tenant;
let B: Tenant;
let before: Snapshot;
let sessions: { admin: Session; member: Session };

const h = useHarness({}, async (h) => {
  B = await prepareTenant(h, h.b);
  A = await prepareTenant(h, h.a);
  await givePassword(h, h.a.admin.id);
  await givePassword(h, h.a.member.id);
  sessions = { admin: await signIn(h, 'admin-A@example.org'), member: await signIn(h, 'member-A@example.org') };
  before = await snapshotDb(h);
});

type Expectation = 'not_found' | 'empty_list' | 'ok';
interface Attack {
  label: string;
  opts: InjectOptions;
  expect: Expectation;
}

/** Every way of putting B's ids into the operation: path slots, id-valued body fields, id filters. */
function attacksOn(op: Operation): Attack[] {
  const out: Attack[] = [];
  const names = pathParamNames(op.path);
  if (names.length > 0) {
    const own = op.params!(A.ids);
    const theirs = op.params!(B.ids);
    const combos: Record<string, string>[] = [theirs];
    // Each slot in turn gets every one of B's ids, the other slots A's own valid ids.
    for (const slot of names) for (const id of B.allIds) combos.push({ ...own, [slot]: id });
    // Mixed: B's parent with A's child and the reverse, when there are two slots.
    if (names.length === 2) {
      combos.push({ [names[0]!]: theirs[names[0]!]!, [names[1]!]: own[names[1]!]! });
      combos.push({ [names[0]!]: own[names[0]!]!, [names[1]!]: theirs[names[1]!]! });
    }
    for (const params of combos) {
      const url = fillPath(op.path, params);
      out.push({
        label: `${op.method} ${url}`,
        opts: { method: op.method, url, ...(op.body ? { payload: op.body(A.ids) } : {}) },
        expect: 'not_found',
      });
    }
    return out;
  }
  if (op.body) {
    const ownBody = op.body(A.ids);
    const bodies: Record<string, unknown>[] = [op.body(B.ids)];
    // Each id-valued field in turn points at B.
    const idFields = Object.entries(ownBody).filter(([, v]) => typeof v === 'string' && Object.values(A.ids).includes(v));
    for (const [field] of idFields) for (const id of B.allIds) bodies.push({ ...ownBody, [field]: id });
    if (op.key === 'POST /webhooks') {
      bodies.push({ organization_id: B.ids.orgId, url: 'https://hooks.example.org/x' });
      bodies.push({ lab_id: B.ids.migratedLabId, url: 'https://hooks.example.org/x', event_types: [] });
    }
    for (const payload of bodies)
      out.push({
        label: `${op.method} ${op.path} ${JSON.stringify(payload)}`,
        opts: { method: op.method, url: op.path, payload },
        expect: 'not_found',
      });
    return out;
  }
  for (const [name, values] of Object.entries(op.filters ?? {})) {
    for (const value of values(B.ids)) {
      const url = `${op.path}?${new URLSearchParams({ [name]: value })}`;
      out.push({ label: `GET ${url}`, opts: { method: 'GET', url }, expect: 'empty_list' });
    }
  }
  // Unfiltered (and for /user and /healthz the only call): succeeds, shows none of B.
  out.push({ label: `${op.method} ${op.path}`, opts: { method: op.method, url: op.path }, expect: 'ok' });
  return out;
}

function checkAttack(
  attack: Attack,
  res: { statusCode: number; body: string; json(): any },
  role: 'admin' | 'member',
  op: Operation,
): void {
  const where = `${role}: ${attack.label} -> ${res.statusCode} ${res.body.slice(0, 300)}`;
  expect(res.statusCode, where).toBeLessThan(500);
  expect(leakedSecrets(res as never, B.secrets), where).toEqual([]);
  // A member may be refused webhook management outright (403), but only where no foreign id is in the path.
  const forbiddenAllowed = role === 'member' && op.adminOnly && pathParamNames(op.path).length === 0;
  if (forbiddenAllowed && res.statusCode === 403) {
    expect(res.json().code, where).toBe('forbidden');
    return;
  }
  if (attack.expect === 'not_found') {
    expect(res.statusCode, where).toBe(404);
    expect(res.json(), where).toMatchObject({ code: 'not_found' });
  } else if (attack.expect === 'empty_list') {
    expect(res.statusCode, where).toBe(200);
    expect(res.json(), where).toEqual([]);
  } else {
    expect(res.statusCode, where).toBe(op.success);
  }
}

describe("B's ids are real (control: B's own admin reaches them)", () => {
  it.each(OPERATIONS.filter((op) => op.method === 'GET' && (op.params || op.filters)).map((op) => [op.key, op] as const))(
    '%s',
    async (_key, op) => {
      if (op.params) {
        const res = await h.call(B.fixture.admin.token, { method: 'GET', url: fillPath(op.path, op.params(B.ids)) });
        expect(res.statusCode, res.body).toBe(200);
      }
      for (const [name, values] of Object.entries(op.filters ?? {})) {
        const res = await h.call(B.fixture.admin.token, {
          method: 'GET',
          url: `${op.path}?${new URLSearchParams({ [name]: values(B.ids)[0]! })}`,
        });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().length, `${op.key}?${name}`).toBeGreaterThan(0);
      }
    },
  );
});

describe("org A's admin token with org B's ids", () => {
  it('covers all 17 public operations', () => {
    expect(OPERATIONS.map((o) => o.key).sort()).toEqual([
      'GET /healthz',
      'GET /inventory-items',
      'GET /inventory-items/{id}',
      'GET /labs',
      'GET /labs/{id}',
      'GET /order-requests',
      'GET /order-requests/{id}',
      'GET /types',
      'GET /user',
      'GET /webhooks',
      'GET /webhooks/{id}',
      'POST /order-requests',
      'POST /webhooks',
      'PUT /inventory-items/{id}',
      'PUT /inventory-items/{itemId}/instances/{itemInstanceId}',
      'PUT /order-requests/{id}',
      'PUT /webhooks/{id}',
    ]);
  });

  it.each(OPERATIONS.map((op) => [op.key, op] as const))('%s: 404 or [] and no B id in any response', async (_key, op) => {
    const attacks = attacksOn(op);
    expect(attacks.length).toBeGreaterThan(0);
    for (const attack of attacks) {
      const res = await h.call(A.fixture.admin.token, attack.opts);
      checkAttack(attack, res, 'admin', op);
    }
  });
});

describe("org A's member token with org B's ids", () => {
  it.each(OPERATIONS.map((op) => [op.key, op] as const))('%s: 404 (never 403 for a foreign id) or [] and no B id', async (_key, op) => {
    for (const attack of attacksOn(op)) {
      const res = await h.call(A.fixture.member.token, attack.opts);
      checkAttack(attack, res, 'member', op);
    }
  });
});

describe("org A's sessions (cookie and CSRF token) with org B's ids", () => {
  it.each(OPERATIONS.map((op) => [op.key, op] as const))('%s: as with the same users’ tokens', async (_key, op) => {
    for (const attack of attacksOn(op)) {
      checkAttack(attack, await withSession(h, sessions.admin, attack.opts), 'admin', op);
      checkAttack(attack, await withSession(h, sessions.member, attack.opts), 'member', op);
    }
  });
});

describe('afterwards', () => {
  it('the database is exactly as before (all rows of all tables, except access_tokens.last_used_at and sessions.last_seen_at)', async () => {
    const after = await snapshotDb(h);
    expect(snapshotDiff(before, after)).toBeNull();
    expect(after).toEqual(before);
  });

  it("B's resources are untouched as B sees them", async () => {
    const order = await h.call(B.fixture.admin.token, { method: 'GET', url: `/order-requests/${B.ids.orderId}` });
    expect(order.json().status).toBe('CREATED');
    const webhook = await h.call(B.fixture.admin.token, { method: 'GET', url: `/webhooks/${B.ids.webhookId}` });
    expect(webhook.json().is_enabled).toBe(true);
    const item = await h.call(B.fixture.admin.token, { method: 'GET', url: `/inventory-items/${B.ids.legacyItemId}` });
    expect(item.json().quantity).toBe('3');
    const migrated = await h.call(B.fixture.admin.token, { method: 'GET', url: `/inventory-items/${B.ids.migratedItemId}` });
    expect(migrated.json().quantity).toBe('0.3');
  });
});

describe('the snapshot is not blind', () => {
  it('sees a change A makes to its own data', async () => {
    const start = await snapshotDb(h);
    const res = await h.call(A.fixture.admin.token, { method: 'PUT', url: `/webhooks/${A.ids.webhookId}`, payload: { name: 'renamed' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(snapshotDiff(start, await snapshotDb(h))).toMatch(/webhooks/);
  });
});
