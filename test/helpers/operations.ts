// Shared by the cross-tenant matrix and the random-request property test: the 17 public operations
// (docs/product.md §1), the ids of one tenant, and a whole-database snapshot.
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import type { OrgFixture } from './fixtures.js';
import type { Harness } from './harness.js';

/** The ids one organization's resources carry, as the operations need them. */
export interface TenantIds {
  orgId: string;
  legacyLabId: string;
  legacyTypeId: string;
  legacyItemId: string;
  migratedLabId: string;
  migratedTypeId: string;
  migratedItemId: string;
  instanceId: string;
  otherLabId: string;
  otherTypeId: string;
  orderId: string;
  webhookId: string;
}

export interface Tenant {
  fixture: OrgFixture;
  ids: TenantIds;
  /** Every id of the tenant (users, labs, types, items, instances, locations, order, webhook, org). */
  allIds: string[];
  /** Strings that must never appear in another tenant's responses (ids plus the webhook signing key). */
  secrets: string[];
}

export type Method = 'GET' | 'POST' | 'PUT';

export interface Operation {
  /** "METHOD /path/{param}" exactly as docs/product.md §1 writes it. */
  key: string;
  method: Method;
  path: string;
  /** Open without a token. */
  public?: boolean;
  /** Returns a JSON array. */
  list?: boolean;
  /** Admin-only operations (webhook management). */
  adminOnly?: boolean;
  success: number;
  /** Path parameter values of an existing resource of the tenant. */
  params?: (ids: TenantIds) => Record<string, string>;
  /** Query filters that take ids, each with the tenant's values for it. */
  filters?: Record<string, (ids: TenantIds) => string[]>;
  /** A valid body for the tenant's resources. */
  body?: (ids: TenantIds) => Record<string, unknown>;
}

export const OPERATIONS: Operation[] = [
  { key: 'GET /healthz', method: 'GET', path: '/healthz', public: true, success: 200 },
  { key: 'GET /user', method: 'GET', path: '/user', success: 200 },
  {
    key: 'GET /inventory-items',
    method: 'GET',
    path: '/inventory-items',
    list: true,
    success: 200,
    filters: { lab_id: (i) => [i.legacyLabId, i.migratedLabId, i.otherLabId] },
  },
  { key: 'GET /inventory-items/{id}', method: 'GET', path: '/inventory-items/{id}', success: 200, params: (i) => ({ id: i.legacyItemId }) },
  {
    key: 'PUT /inventory-items/{id}',
    method: 'PUT',
    path: '/inventory-items/{id}',
    success: 200,
    params: (i) => ({ id: i.legacyItemId }),
    body: () => ({ quantity: '7' }),
  },
  {
    key: 'PUT /inventory-items/{itemId}/instances/{itemInstanceId}',
    method: 'PUT',
    path: '/inventory-items/{itemId}/instances/{itemInstanceId}',
    success: 200,
    params: (i) => ({ itemId: i.migratedItemId, itemInstanceId: i.instanceId }),
    body: () => ({ quantity: '0.5' }),
  },
  { key: 'GET /labs', method: 'GET', path: '/labs', list: true, success: 200, filters: { organization_id: (i) => [i.orgId] } },
  { key: 'GET /labs/{id}', method: 'GET', path: '/labs/{id}', success: 200, params: (i) => ({ id: i.legacyLabId }) },
  {
    key: 'GET /order-requests',
    method: 'GET',
    path: '/order-requests',
    list: true,
    success: 200,
    filters: { lab_id: (i) => [i.legacyLabId, i.migratedLabId, i.otherLabId] },
  },
  {
    key: 'POST /order-requests',
    method: 'POST',
    path: '/order-requests',
    success: 201,
    body: (i) => ({
      lab_id: i.legacyLabId,
      type_id: i.legacyTypeId,
      name: 'Pipette tips',
      vendor_name: 'Eppendorf',
      catalog_number: 'EP-200',
      price: { amount: '1250', currency: 'USD' },
      quantity: 2,
    }),
  },
  { key: 'GET /order-requests/{id}', method: 'GET', path: '/order-requests/{id}', success: 200, params: (i) => ({ id: i.orderId }) },
  {
    key: 'PUT /order-requests/{id}',
    method: 'PUT',
    path: '/order-requests/{id}',
    success: 200,
    params: (i) => ({ id: i.orderId }),
    body: () => ({ status: 'APPROVED' }),
  },
  {
    key: 'GET /types',
    method: 'GET',
    path: '/types',
    list: true,
    success: 200,
    filters: { lab_id: (i) => [i.legacyLabId, i.migratedLabId, i.otherLabId] },
  },
  {
    key: 'GET /webhooks',
    method: 'GET',
    path: '/webhooks',
    list: true,
    adminOnly: true,
    success: 200,
    filters: { organization_id: (i) => [i.orgId] },
  },
  {
    key: 'POST /webhooks',
    method: 'POST',
    path: '/webhooks',
    adminOnly: true,
    success: 201,
    body: (i) => ({ lab_id: i.legacyLabId, url: 'https://hooks.example.org/labstock', event_types: ['order-request.*'] }),
  },
  { key: 'GET /webhooks/{id}', method: 'GET', path: '/webhooks/{id}', adminOnly: true, success: 200, params: (i) => ({ id: i.webhookId }) },
  {
    key: 'PUT /webhooks/{id}',
    method: 'PUT',
    path: '/webhooks/{id}',
    adminOnly: true,
    success: 200,
    params: (i) => ({ id: i.webhookId }),
    body: () => ({ is_enabled: false }),
  },
];

/** Fills a path template; values are percent-encoded so any string can be tried as an id. */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${template}`);
    return encodeURIComponent(value);
  });
}

export const pathParamNames = (template: string): string[] => [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

/**
 * Gives the organization an order request and a webhook, created through the API with its own admin token, so
 * there are ids of every kind to try from the other tenant.
 */
export async function prepareTenant(h: Harness, f: OrgFixture): Promise<Tenant> {
  const order = await h.call(f.admin.token, {
    method: 'POST',
    url: '/order-requests',
    payload: {
      lab_id: f.legacyLab.id,
      type_id: f.legacyLab.typeId,
      name: 'Ethanol absolute',
      vendor_name: 'Sigma',
      catalog_number: 'E7023',
      price: { amount: '4250', currency: 'USD' },
      quantity: 1,
    },
  });
  if (order.statusCode !== 201) throw new Error(`could not create the order request: ${order.statusCode} ${order.body}`);
  const webhook = await h.call(f.admin.token, {
    method: 'POST',
    url: '/webhooks',
    payload: { organization_id: f.orgId, name: 'all events', url: 'https://hooks.example.org/tenant' },
  });
  if (webhook.statusCode !== 201) throw new Error(`could not create the webhook: ${webhook.statusCode} ${webhook.body}`);
  const ids: TenantIds = {
    orgId: f.orgId,
    legacyLabId: f.legacyLab.id,
    legacyTypeId: f.legacyLab.typeId,
    legacyItemId: f.legacyLab.itemId,
    migratedLabId: f.migratedLab.id,
    migratedTypeId: f.migratedLab.typeId,
    migratedItemId: f.migratedLab.itemId,
    instanceId: f.migratedLab.instanceIds[0]!,
    otherLabId: f.otherLab.id,
    otherTypeId: f.otherLab.typeId,
    orderId: order.json().id as string,
    webhookId: webhook.json().id as string,
  };
  const allIds = [
    ...new Set([...Object.values(ids), f.admin.id, f.member.id, f.outsider.id, ...f.migratedLab.instanceIds, ...f.migratedLab.locationIds]),
  ];
  return { fixture: f, ids, allIds, secrets: [...allIds, webhook.json().signing_key as string] };
}

// ---------------------------------------------------------------------------------------------------------------
// Database snapshot

const PRIMARY_KEYS: Record<string, string[]> = {
  org_memberships: ['organization_id', 'user_id'],
  lab_memberships: ['lab_id', 'user_id'],
  idempotency_keys: ['token_id', 'key'],
  sign_in_throttle: ['key'],
};

/** Columns that a read may legitimately change. */
const IGNORED_COLUMNS: Record<string, string[]> = { access_tokens: ['last_used_at'], sessions: ['last_seen_at'] };

export type Snapshot = Record<string, Record<string, unknown>[]>;

interface TableInfo {
  name: string;
  orderBy: string[];
  ignored: string[];
}
const tableCache = new WeakMap<Harness, TableInfo[]>();

/**
 * The file's own tables and their columns. On PostgreSQL only its schema is read: Kysely's introspection reads every
 * schema's catalog, and fails ("schema … does not exist") when another test file drops its schema meanwhile.
 */
async function baseTables(h: Harness): Promise<{ name: string; columns: { name: string }[] }[]> {
  const schema = h.database.pgSchema;
  if (!schema) return (await h.deps.db.introspection.getTables()).filter((t) => !t.isView);
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select c.table_name, c.column_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = ${schema} and t.table_type = 'BASE TABLE'
    order by c.table_name, c.ordinal_position`.execute(h.deps.db);
  const byTable = new Map<string, { name: string }[]>();
  for (const r of rows) byTable.set(r.table_name, [...(byTable.get(r.table_name) ?? []), { name: r.column_name }]);
  return [...byTable].map(([name, columns]) => ({ name, columns }));
}

async function tablesOf(h: Harness): Promise<TableInfo[]> {
  const cached = tableCache.get(h);
  if (cached) return cached;
  const tables = (await baseTables(h))
    .sort((x, y) => x.name.localeCompare(y.name))
    .map((t) => {
      const columns = t.columns.map((c) => c.name);
      return {
        name: t.name,
        orderBy: PRIMARY_KEYS[t.name] ?? (columns.includes('id') ? ['id'] : columns),
        ignored: IGNORED_COLUMNS[t.name] ?? [],
      };
    });
  if (tables.length < 10) throw new Error(`snapshot found only ${tables.length} tables; is the schema filter right?`);
  tableCache.set(h, tables);
  return tables;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Every row of every table of the test database (views and Kysely's own migration tables aside), ordered by
 * primary key, without access_tokens.last_used_at. On PostgreSQL it is one statement, so the snapshot is
 * consistent and cheap enough to take after every request.
 */
export async function snapshotDb(h: Harness): Promise<Snapshot> {
  const db = h.deps.db;
  const tables = await tablesOf(h);
  const out: Snapshot = {};
  if (h.database.pgSchema) {
    const parts = tables.map(
      (t) =>
        `'${t.name}', (SELECT coalesce(json_agg(r ORDER BY ${t.orderBy.map((c) => `r.${quote(c)}`).join(', ')}), '[]'::json) FROM ${quote(t.name)} r)`,
    );
    // json_build_object takes at most 100 arguments (50 tables): one object per 40 tables, still one statement.
    const columns: string[] = [];
    for (let i = 0; i < parts.length; i += 40) columns.push(`json_build_object(${parts.slice(i, i + 40).join(', ')}) AS s${i}`);
    const { rows } = await sql<Record<string, Snapshot>>`SELECT ${sql.raw(columns.join(', '))}`.execute(db);
    for (const part of Object.values(rows[0]!)) Object.assign(out, part);
  } else {
    for (const t of tables) {
      let q = db.selectFrom(t.name as never).selectAll();
      for (const c of t.orderBy) q = q.orderBy(c as never);
      out[t.name] = (await q.execute()) as Record<string, unknown>[];
    }
  }
  for (const t of tables) {
    if (t.ignored.length === 0) continue;
    out[t.name] = out[t.name]!.map((r) => {
      const copy = { ...r };
      for (const c of t.ignored) delete copy[c];
      return copy;
    });
  }
  return out;
}

/** Names the tables whose rows differ, or returns null when the snapshots are identical. */
export function snapshotDiff(before: Snapshot, after: Snapshot): string | null {
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const changed: string[] = [];
  for (const name of names) {
    const b = JSON.stringify(before[name] ?? null);
    const a = JSON.stringify(after[name] ?? null);
    if (a !== b) changed.push(`${name} (${before[name]?.length ?? 0} -> ${after[name]?.length ?? 0} rows)`);
  }
  return changed.length ? `tables changed: ${changed.join(', ')}` : null;
}

/** The strings of `secrets` that occur in the response body (and not in the request itself). */
export function leakedSecrets(res: LightMyRequestResponse, secrets: string[], requestText = ''): string[] {
  return secrets.filter((s) => res.body.includes(s) && !requestText.includes(s));
}
