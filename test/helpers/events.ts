// The event helpers of every test folder (no tests in here). An operation's events are read back from the `events`
// table and validated against the schema the service publishes in GET /openapi.json's `webhooks` section, so a
// payload that drifts from the published schema (or the other way round) fails.
//
// Adding a kind (the shop's sales-order.placed, sales-order-item.*, shipment.*) is one KindCase each:
//   { type: 'shipment.created', cause: 'POST …/ship', setup: …, act: …, emits: ['shipment.created', 'sales-order-item.shipped'] }
// run with `it(`${c.type}: ${c.cause}`, () => runKindCase(h, c))`.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { CloudEvent } from '../../src/events/outbox.js';
import { dataKeyOf, dataKeysOf, fullEventType, type ShortEventType } from '../../src/events/types.js';
import type { Harness } from './harness.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** The ids of the events that existed at some moment; what an operation emitted is everything not in it. */
export type EventMark = ReadonlySet<string>;

/** An outbox row and its parsed envelope (`any` where a test reads the payload of a kind it knows). */
export interface StoredEvent<E = any> {
  row: { id: string; type: string; organization_id: string; lab_id: string | null; created_at: string };
  event: E;
}

export async function eventMark(h: Harness): Promise<EventMark> {
  return new Set((await h.deps.db.selectFrom('events').select('id').execute()).map((r) => r.id));
}

/** Events written since `before`, in the order they were written (ids are time-ordered UUIDv7). */
export async function eventsSince(h: Harness, before: EventMark): Promise<StoredEvent<CloudEvent>[]> {
  const rows = await h.deps.db
    .selectFrom('events')
    .select(['id', 'type', 'organization_id', 'lab_id', 'payload', 'created_at'])
    .orderBy('id')
    .execute();
  return rows
    .filter((r) => !before.has(r.id))
    .map(({ payload, ...row }) => ({
      row,
      event: (typeof payload === 'string' ? JSON.parse(payload) : payload) as CloudEvent,
    }));
}

/** Short types of the events written since `before`. */
export async function shortTypesSince(h: Harness, before: EventMark): Promise<string[]> {
  const prefix = `com.${h.config.eventVendor}.`;
  return (await eventsSince(h, before)).map((e) => (e.row.type.startsWith(prefix) ? e.row.type.slice(prefix.length) : e.row.type));
}

/** Exactly these events (as a multiset, in any order) were written since `before`. */
export async function expectEventTypes(h: Harness, before: EventMark, shorts: readonly string[]): Promise<void> {
  expect((await shortTypesSince(h, before)).sort()).toEqual([...shorts].sort());
}

const documents = new WeakMap<Harness, Promise<any>>();

/** GET /openapi.json as the app serves it (fetched once per harness). */
export function publishedDocument(h: Harness): Promise<any> {
  let doc = documents.get(h);
  if (!doc) {
    doc = h.call(null, { method: 'GET', url: '/openapi.json' }).then((res) => {
      expect(res.statusCode).toBe(200);
      return res.json();
    });
    documents.set(h, doc);
  }
  return doc;
}

/** The envelope schema /openapi.json publishes for one kind (webhooks.<short>.post's JSON body). */
export async function publishedEventSchema(h: Harness, short: ShortEventType): Promise<Record<string, unknown>> {
  const doc = await publishedDocument(h);
  const schema = doc.webhooks?.[short]?.post?.requestBody?.content?.['application/json']?.schema;
  expect(schema, `webhooks.${short} is published`).toBeDefined();
  return schema;
}

const validators = new WeakMap<Harness, Map<string, ValidateFunction>>();

/** Validates a whole event against the published schema of its kind (Ajv, JSON Schema 2020-12, strict). */
export async function expectMatchesPublishedSchema(h: Harness, short: ShortEventType, event: unknown): Promise<void> {
  let cache = validators.get(h);
  if (!cache) validators.set(h, (cache = new Map()));
  let validate = cache.get(short);
  if (!validate) {
    const ajv = addFormats(new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true }));
    validate = ajv.compile(await publishedEventSchema(h, short));
    cache.set(short, validate);
  }
  const ok = validate(event);
  expect(validate.errors ?? [], `${short} matches its published schema`).toEqual([]);
  expect(ok).toBe(true);
}

export interface ExpectOneOptions {
  /** The id the resource in `data` must have. */
  resourceId?: string;
  /** The event's lab and organization as stored on its row (they decide which webhooks get it). */
  labId?: string | null;
  organizationId?: string;
}

/**
 * Exactly one event of `short` was written since `before`; it is a well-formed envelope whose `data` has only
 * the kind's key, its row agrees with it, and it validates against the published schema. Returns it.
 */
export async function expectOneEvent(
  h: Harness,
  short: ShortEventType,
  before: EventMark,
  opts: ExpectOneOptions = {},
): Promise<StoredEvent<CloudEvent> & { resource: any }> {
  const type = fullEventType(h.config.eventVendor, short);
  const all = await eventsSince(h, before);
  const mine = all.filter((e) => e.row.type === type);
  expect(mine.length, `one ${short} among ${all.map((e) => e.row.type).join(', ') || 'no events'}`).toBe(1);
  const { row, event } = mine[0]!;

  expect(event.type).toBe(type);
  expect(event.id).toBe(row.id);
  expect(event.specversion).toBe('1.0');
  expect(event.source).toBe(h.config.eventSource);
  expect(event.datacontenttype).toBe('application/json');
  expect(event.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  expect(new Date(row.created_at as string).getTime()).toBe(Date.parse(event.time));
  expect(Object.keys(event.data)).toEqual(dataKeysOf(short));
  await expectMatchesPublishedSchema(h, short, event);

  const resource = event.data[dataKeyOf(short)] as any;
  if (opts.resourceId !== undefined) expect(resource.id).toBe(opts.resourceId);
  if (opts.labId !== undefined) expect(row.lab_id).toBe(opts.labId);
  if (opts.organizationId !== undefined) expect(row.organization_id).toBe(opts.organizationId);
  return { row, event, resource };
}

export interface KindResult {
  response: LightMyRequestResponse;
  /** The resource the event is about, where it lives. */
  resourceId: string;
  labId: string;
  organizationId: string;
}

/** One cause of one event kind, performed through the HTTP API. */
export interface KindCase<C = any> {
  type: ShortEventType;
  /** What causes it, for the test name. */
  cause: string;
  /** Preparation; the events it writes are not counted. */
  setup?(h: Harness): Promise<C>;
  /** The operation itself. */
  act(h: Harness, ctx: C): Promise<KindResult>;
  /** Every event the operation writes (default: only `type`); checked as a multiset, so duplicates fail. */
  emits?: readonly ShortEventType[];
  /** Further checks on the payload, e.g. that it is what the response or a read showed. */
  check?(resource: any, result: KindResult, ctx: C, h: Harness): void | Promise<void>;
}

export async function runKindCase<C>(h: Harness, c: KindCase<C>): Promise<void> {
  const ctx = (c.setup ? await c.setup(h) : undefined) as C;
  const before = await eventMark(h);
  const result = await c.act(h, ctx);
  expect(result.response.statusCode, result.response.body).toBeLessThan(300);
  await expectEventTypes(h, before, c.emits ?? [c.type]);
  // The other events the operation writes (the shop's order-request.ordered, receiving's inventory-item.created…)
  // must match their published schemas too.
  const prefix = `${fullEventType(h.config.eventVendor, c.type).slice(0, -c.type.length)}`;
  for (const { row, event } of await eventsSince(h, before)) {
    await expectMatchesPublishedSchema(h, (row.type as string).slice(prefix.length) as ShortEventType, event);
  }
  const { resource } = await expectOneEvent(h, c.type, before, {
    resourceId: result.resourceId,
    labId: result.labId,
    organizationId: result.organizationId,
  });
  await c.check?.(resource, result, ctx, h);
}

/** Outbox events of a full type (e.g. com.labstock.order-request.created), parsed, in insertion order. */
export async function eventsOfType(h: Harness, type: string): Promise<StoredEvent[]> {
  const rows = await h.deps.db.selectFrom('events').selectAll().where('type', '=', type).orderBy('created_at').orderBy('id').execute();
  return rows.map((r) => ({
    row: { id: r.id, type: r.type, organization_id: r.organization_id, lab_id: r.lab_id, created_at: r.created_at },
    event: JSON.parse(r.payload),
  }));
}

/** The payloads of the outbox events of a short type (e.g. sales-order.placed), in insertion order. */
export const eventPayloadsOfType = async (h: Harness, shortType: string) =>
  (
    await h.deps.db
      .selectFrom('events')
      .selectAll()
      .where('type', '=', `com.labstock.${shortType}`)
      .orderBy('created_at')
      .orderBy('id')
      .execute()
  ).map((e) => JSON.parse(e.payload) as { type: string; data: Record<string, any> });

/** Events written after `before` (a list of event ids), with their payload parsed. */
export async function eventsAfter(h: Harness, before: string[]) {
  const known = new Set(before);
  const rows = await h.deps.db.selectFrom('events').selectAll().orderBy('created_at').orderBy('id').execute();
  return rows.filter((r) => !known.has(r.id)).map((r) => ({ ...r, event: JSON.parse(r.payload) as any }));
}

export const eventCount = async (h: Harness): Promise<number> => (await h.deps.db.selectFrom('events').select(['id']).execute()).length;

/** Checks the CloudEvents envelope (docs/product.md §7) of an outbox event. */
export function expectEnvelope(e: StoredEvent, type: string, dataKey: string): void {
  expect(e.event.specversion).toBe('1.0');
  expect(e.event.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  expect(e.event.id).toBe(e.row.id);
  expect(e.event.source).toBe('https://labstock.test');
  expect(e.event.type).toBe(type);
  expect(e.event.datacontenttype).toBe('application/json');
  expect(e.event.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  expect(Object.keys(e.event.data)).toEqual([dataKey]);
}
