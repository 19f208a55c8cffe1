// Shared by the security and errors tests of the webhook endpoints: one harness per file (with, for the security
// tests, a webhook of organization A and one of organization B), and the cases every endpoint that takes a
// webhook id must pass: members 403, another organization's webhook 404 (never 403) with nothing of it in the
// answer, that 404 the same as for an id that exists nowhere, and the standard refusals of the errors tests.
// Every refusal case also checks that nothing changed, when the file gives a snapshot.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../helpers/harness.js';

export { expectError } from '../../helpers/errors.js';

export const GHOST_ID = '00000000-0000-4000-8000-000000000000';

export type Webhook = { id: string; signing_key: string; url: string };

// Set by the beforeAll that useHarness() registers; ES module bindings are live, so a test file that imports
// them reads the values of its own run.
export let h: Harness;
/** Organization A's organization-wide webhook (https://hooks.example.org/a), made by A's admin. */
export let aHook: Webhook;
/** Organization B's webhook, made by B's admin for B's organization or for B's legacy lab. */
export let bHook: Webhook;

/**
 * Registers the file's beforeAll (a harness; with `webhooks`, also aHook and bHook) and afterAll; call it once,
 * at the top level, before any other beforeAll of the file.
 */
export function useHarness(webhooks?: { b: 'organization' | 'lab'; bUrl?: string }): void {
  beforeAll(async () => {
    h = await startHarness();
    if (!webhooks) return;
    const make = async (token: string, payload: Record<string, unknown>) => {
      const res = await h.call(token, { method: 'POST', url: '/webhooks', payload });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as Webhook;
    };
    aHook = await make(h.a.admin.token, { organization_id: h.a.orgId, url: 'https://hooks.example.org/a' });
    const bUrl = webhooks.bUrl ?? 'https://hooks.example.org/b';
    bHook = await make(
      h.b.admin.token,
      webhooks.b === 'lab' ? { lab_id: h.b.legacyLab.id, url: bUrl } : { organization_id: h.b.orgId, url: bUrl },
    );
  });
  afterAll(() => h?.close());
}

/**
 * Organization A's webhook to https://hooks.example.org/keep (with `payload`'s fields), made by A's admin before the
 * file's tests: the one its errors tests send refused requests to. `then` runs once it exists (a queued delivery, an
 * event). Register it after useHarness(); its fields are there from the first test on.
 */
export function keptWebhook(
  payload: Record<string, unknown> = {},
  then?: (hook: Webhook) => Promise<void>,
): Webhook & Record<string, unknown> {
  const hook = {} as Webhook & Record<string, unknown>;
  beforeAll(async () => {
    const res = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/webhooks',
      payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/keep', ...payload },
    });
    expect(res.statusCode, res.body).toBe(201);
    Object.assign(hook, res.json());
    await then?.(hook);
  });
  return hook;
}

/** What a refusal answers: the standard error body. */
export type RefusalBody = { code: string; message: string; errors?: { field: string; message: string }[] };

/**
 * An errors test's refusal: `send` as `token` (A's admin when undefined), then the status and the standard error body
 * (code, a message, the request id), `check` on the answer, and `snapshot` reading the same before and after.
 */
export async function refusedBy(
  send: (token: string | null) => Promise<LightMyRequestResponse>,
  token: string | null | undefined,
  snapshot: () => Promise<unknown>,
  status: number,
  code: string,
  check?: (res: LightMyRequestResponse) => void,
): Promise<RefusalBody> {
  const before = await snapshot();
  const res = await send(token === undefined ? h.a.admin.token : token);
  expect(res.statusCode, res.body).toBe(status);
  check?.(res);
  expect(res.json()).toMatchObject({ code, message: expect.any(String), request_id: res.headers['x-request-id'] });
  expect(await snapshot()).toEqual(before);
  return res.json();
}

/** Every event type a webhook can subscribe to, in the short spelling (docs/webhooks.md). */
export const ALL_SHORT_TYPES = [
  'inventory-item.created',
  'inventory-item.updated',
  'inventory-item.deleted',
  'order-request.created',
  'order-request.deleted',
  'order-request.ordered',
  'order-request.received',
  'sales-order.placed',
  'sales-order-item.backordered',
  'sales-order-item.cancelled',
  'sales-order-item.delivered',
  'sales-order-item.shipped',
  'shipment.created',
  'shipment.delivered',
  'type.created',
  'type.deleted',
  'type.updated',
];

/** How many webhooks there are, of every organization. */
export const countWebhooks = async () =>
  Number(
    (
      await h.deps.db
        .selectFrom('webhooks')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const TABLES = { webhooks: 'webhooks', deliveries: 'webhook_deliveries', attempts: 'webhook_attempts', events: 'events' } as const;
export type Row = { id: string } & Record<string, unknown>;

/** A function that reads the named tables whole (ordered by id), to compare before and after a refusal. */
export function snapshotOf<K extends keyof typeof TABLES>(...tables: K[]): () => Promise<Record<K, Row[]>> {
  return async () => {
    const out = {} as Record<K, Row[]>;
    for (const t of tables)
      out[t] = (await h.deps.db
        .selectFrom(TABLES[t] as 'webhooks')
        .selectAll()
        .orderBy('id')
        .execute()) as Row[];
    return out;
  };
}

type Response = LightMyRequestResponse;
/** One request of the endpoint under test, as `token` on the webhook `id`. */
export type Call = (token: string, id: string) => Promise<Response>;

export interface Operation {
  /** The request; with several (e.g. one per payload), each is made for every token and id. */
  call: Call | readonly Call[];
  /** Read before and after; the case fails unless both are equal. */
  snapshot?: () => Promise<unknown>;
  /** Further checks on each refusal (e.g. no X-Total-Count). */
  check?: (res: Response) => void;
}

export interface Refusal extends Operation {
  /** Tokens to try (members: A's member and outsider; foreign: A's admin, member and outsider). */
  tokens?: () => readonly string[];
  /** Ids to try (members: aHook; foreign: bHook). */
  id?: () => string | readonly string[];
  /** Foreign only: strings no answer may contain besides B's organization id and bHook's id and key. */
  leaks?: () => readonly string[] | Promise<readonly string[]>;
}

/** The standard error body with `status` and `code`, no signing key, and none of `leaks`. */
export function expectRefusal(res: Response, status: number, code: string, leaks: readonly string[] = []): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ code, message: expect.any(String), request_id: res.headers['x-request-id'] });
  expect(res.body).not.toContain('whsec_');
  for (const secret of leaks) expect(res.body).not.toContain(secret);
}

/** Status, code and message equal: the answer tells nothing more than `missing` does. */
export function expectSameAnswer(foreign: Response, missing: Response): void {
  expect([foreign.statusCode, foreign.json().code, foreign.json().message]).toEqual([
    missing.statusCode,
    missing.json().code,
    missing.json().message,
  ]);
}

const list = <T>(x: T | readonly T[]): readonly T[] => (Array.isArray(x) ? x : [x as T]);

async function refusedEverywhere(
  r: Refusal,
  tokens: readonly string[],
  ids: readonly string[],
  status: number,
  code: string,
  leaks: readonly string[],
) {
  const before = await r.snapshot?.();
  for (const token of tokens) {
    for (const id of ids) {
      for (const call of list(r.call)) {
        const res = await call(token, id);
        expectRefusal(res, status, code, leaks);
        r.check?.(res);
      }
    }
  }
  if (r.snapshot) expect(await r.snapshot()).toEqual(before);
}

/** Members (by default A's member and outsider) get 403 for A's webhook, without its key; nothing changes. */
export function itRefusesMembers(name: string, r: Refusal): void {
  it(name, async () => {
    const tokens = r.tokens?.() ?? [h.a.member.token, h.a.outsider.token];
    await refusedEverywhere(r, tokens, list(r.id?.() ?? aHook.id), 403, 'forbidden', aHook ? [aHook.signing_key] : []);
  });
}

/** B's webhook is 404 for A's admin and members (by default), nothing of B in the answer; nothing changes. */
export function itHidesForeign(name: string, r: Refusal): void {
  it(name, async () => {
    const tokens = r.tokens?.() ?? [h.a.admin.token, h.a.member.token, h.a.outsider.token];
    const leaks = [h.b.orgId, ...(bHook ? [bHook.id, bHook.signing_key] : []), ...((await r.leaks?.()) ?? [])];
    await refusedEverywhere(r, tokens, list(r.id?.() ?? bHook.id), 404, 'not_found', leaks);
  });
}

/** B's id (by default bHook's) answers A's admin exactly like an id that exists nowhere. */
export function itAnswersLikeMissing(name: string, r: { call: Call; id?: () => string }): void {
  it(name, async () => {
    const foreign = await r.call(h.a.admin.token, r.id?.() ?? bHook.id);
    const missing = await r.call(h.a.admin.token, GHOST_ID);
    expectSameAnswer(foreign, missing);
  });
}

/** The three standard cases, in this order, for an endpoint on one webhook id (`op.call` a single request). */
export function webhookSecurityCases(
  op: Operation & { call: Call; leaks?: Refusal['leaks'] },
  names: { members: string; foreign: string; likeMissing: string },
): void {
  itRefusesMembers(names.members, op);
  itHidesForeign(names.foreign, op);
  itAnswersLikeMissing(names.likeMissing, op);
}

// ---- errors tests: each file's own `refused(opts, status, code)` makes the request, checks the standard body and
// that nothing changed, and returns the body.

type Refused = (
  opts: { token?: string | null; id?: string },
  status: number,
  code: string,
) => Promise<{ message?: string; errors?: { field: string }[] }>;
const fields = (body: { errors?: { field: string }[] }) => (body.errors ?? []).map((e) => e.field);

/** `id <id> is not a uuid: 422 naming id`, one test per id. */
export function itRejectsMalformedIds(ids: readonly string[], refused: Refused): void {
  it.each(ids)('id %s is not a uuid: 422 naming id', async (id) => {
    expect(fields(await refused({ id }, 422, 'validation_failed'))).toContain('id');
  });
}

/** `no token or an unknown one: 401`. */
export function itRequiresToken(refused: Refused): void {
  it('no token or an unknown one: 401', async () => {
    await refused({ token: null }, 401, 'unauthorized');
    await refused({ token: 'lst_unknown' }, 401, 'unauthorized');
  });
}

/** `an unknown uuid or a deleted webhook: 404` (the deleted one made by A's admin for the test). */
export function itIsNotFoundWhenUnknownOrDeleted(refused: Refused): void {
  it('an unknown uuid or a deleted webhook: 404', async () => {
    await refused({ id: GHOST_ID }, 404, 'not_found');
    const gone = (
      await h.call(h.a.admin.token, {
        method: 'POST',
        url: '/webhooks',
        payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/deleted' },
      })
    ).json();
    expect((await h.call(h.a.admin.token, { method: 'DELETE', url: `/webhooks/${gone.id}` })).statusCode).toBe(204);
    await refused({ id: gone.id }, 404, 'not_found');
  });
}

/** While the webhook `id()` is disabled by its admin, `refused({})` is 409 saying so; it is enabled again after. */
export function itRefusesWhileDisabled(name: string, id: () => string, refused: Refused): void {
  const setEnabled = async (is_enabled: boolean) => {
    const res = await h.call(h.a.admin.token, { method: 'PUT', url: `/webhooks/${id()}`, payload: { is_enabled } });
    expect(res.statusCode, res.body).toBe(200);
  };
  it(name, async () => {
    await setEnabled(false);
    try {
      const body = await refused({}, 409, 'conflict');
      expect(body.message).toMatch(/disabled/i);
    } finally {
      await setEnabled(true);
    }
  });
}
