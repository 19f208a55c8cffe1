import { type CompiledQuery, sql } from 'kysely';
import { subscribersJson } from '../delivery/webhook-repository.js';
import { labIsVisible } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import { type Executor, isPostgres } from '../shared/db/database.js';
import { precompiled } from '../shared/db/precompiled.js';
import type { OrderRequestEventsTable, OrderRequestsTable, OrderStatus } from '../shared/db/schema.js';

// The statements of POST /order-requests (src/order-requests/create.ts), compiled once per shape
// (src/shared/db/precompiled.ts; docs/decisions/0030-precompiled-writes.md): one read of everything the request
// needs, then its rows, written in one batch with its event.

const ORDER_COLUMNS = [
  'id',
  'lab_id',
  'type_id',
  'status',
  'item_name',
  'vendor_name',
  'catalog_number',
  'vendor_product_id',
  'quantity',
  'unit_size',
  'unit_price',
  'currency',
  'notes',
  'required_before',
  'invoice_number',
  'requisition_number',
  'confirmation_number',
  'tracking_number',
  'purchase_order_number',
  'shipping_and_handling',
  'details',
  'spend_tracking_code',
  'backordered_expected_at',
  'checked_out_line_id',
  'ordered_at',
  'is_urgent',
  'requested_by',
  'created_by',
  'updated_by',
  'requested_at',
  'updated_at',
  'created_at',
] as const satisfies readonly (keyof OrderRequestsTable)[];

const HISTORY_COLUMNS = ['id', 'order_request_id', 'type', 'comment', 'created_by', 'created_at'] as const;

const orderInsert = precompiled((ex, _shape, ...v: unknown[]) =>
  ex.insertInto('order_requests').values(Object.fromEntries(ORDER_COLUMNS.map((c, i) => [c, v[i]])) as unknown as OrderRequestsTable),
);

const historyInsert = precompiled((ex, _shape, ...v: unknown[]) =>
  ex
    .insertInto('order_request_events')
    .values(Object.fromEntries(HISTORY_COLUMNS.map((c, i) => [c, v[i]])) as unknown as OrderRequestEventsTable),
);

/** The request's own row out of a read that selected all its columns among others. */
export const orderRowOf = (r: OrderRequestsTable): OrderRequestsTable =>
  Object.fromEntries(ORDER_COLUMNS.map((c) => [c, r[c]])) as unknown as OrderRequestsTable;

export const orderInsertQuery = (ex: Executor, row: OrderRequestsTable): CompiledQuery =>
  orderInsert.bind(ex, 'row', ...ORDER_COLUMNS.map((c) => row[c]));

export const historyInsertQuery = (ex: Executor, row: OrderRequestEventsTable): CompiledQuery =>
  historyInsert.bind(ex, 'row', ...HISTORY_COLUMNS.map((c) => row[c]));

// Shapes: the caller's role (which labs it sees) and whether only verified webhooks receive events.
const createContext = precompiled((ex, shape, labId: string, typeId: string, organizationId: string, userId: string) => {
  const [role, verified] = shape.split(':') as [Actor['role'], string];
  return (
    ex
      // Aliased: labIsVisible's own `labs` is correlated on this row.
      .selectFrom('labs as lab')
      .innerJoin('organizations', 'organizations.id', 'lab.organization_id')
      .innerJoin('users', (join) => join.on('users.id', '=', userId))
      .leftJoin('lab_approval_rules as rule', 'rule.lab_id', 'lab.id')
      .select([
        'lab.id',
        'lab.name',
        'lab.uses_instances',
        'lab.organization_id',
        'organizations.name as organization_name',
        'users.first_name',
        'users.last_name',
        'users.email',
        'rule.rule',
        'rule.threshold_amount',
        'rule.threshold_currency',
      ])
      .select((eb) =>
        eb.selectFrom('types').select('types.name').where('types.id', '=', typeId).whereRef('types.lab_id', '=', 'lab.id').as('type_name'),
      )
      .select(subscribersJson(ex, 'lab.organization_id', verified === 'verified').as('subscribers'))
      .where('lab.id', '=', labId)
      .where((eb) => eb.exists(labIsVisible(ex, { organizationId, userId, role }, 'lab.id')))
  );
});

/**
 * What creating a request in `labId` needs, in one statement: the lab as a request shows it (undefined when the
 * caller cannot see it), the type's name when it is of that lab (null otherwise), the caller as a request names
 * them, the lab's approval rule (nulls without one) and the organization's webhooks that take events now.
 */
export async function findCreateContext(ex: Executor, actor: Actor, labId: string, typeId: string, verifiedOnly: boolean) {
  const shape = `${actor.role === 'admin' ? 'admin' : 'member'}:${verifiedOnly ? 'verified' : 'any'}`;
  return (await createContext(ex, shape, labId, typeId, actor.organizationId, actor.userId))[0];
}

// The statements of PUT /order-requests/{id} (src/order-requests/service.ts updateOrder and transitionIn).

const transitionContext = precompiled((ex, shape, id: string, organizationId: string, userId: string) => {
  const [role, verified, lock] = shape.split(':') as [Actor['role'], string, string];
  const q = ex
    .selectFrom('order_requests as o')
    .innerJoin('labs as lab', 'lab.id', 'o.lab_id')
    .innerJoin('organizations', 'organizations.id', 'lab.organization_id')
    .innerJoin('types', 'types.id', 'o.type_id')
    .innerJoin('users as requester', 'requester.id', 'o.requested_by')
    .innerJoin('users as creator', 'creator.id', 'o.created_by')
    .innerJoin('users as me', (join) => join.on('me.id', '=', userId))
    .leftJoin('lab_approval_rules as rule', 'rule.lab_id', 'o.lab_id')
    .selectAll('o')
    .select([
      'lab.name as lab_name',
      'lab.uses_instances as lab_uses_instances',
      'lab.organization_id as lab_organization_id',
      'organizations.name as organization_name',
      'types.name as type_name',
      'requester.first_name as requester_first_name',
      'requester.last_name as requester_last_name',
      'requester.email as requester_email',
      'creator.first_name as creator_first_name',
      'creator.last_name as creator_last_name',
      'creator.email as creator_email',
      'me.first_name as me_first_name',
      'me.last_name as me_last_name',
      'me.email as me_email',
      'rule.rule as approval_rule',
      'rule.threshold_amount as approval_threshold_amount',
      'rule.threshold_currency as approval_threshold_currency',
    ])
    .select(subscribersJson(ex, 'lab.organization_id', verified === 'verified').as('subscribers'))
    .where('o.id', '=', id)
    .where((eb) => eb.exists(labIsVisible(ex, { organizationId, userId, role }, 'o.lab_id')));
  // Locked on PostgreSQL until the transaction ends (see findVisibleOrderForUpdate in ./repository.ts).
  return lock === 'lock' ? q.modifyEnd(sql`for update of o`) : q;
});

/**
 * The visible request (undefined when the caller cannot see it) with everything a status change and its answer
 * need, in one statement: its lab, type, requester and creator as a request shows them, the caller as the one who
 * changes it, the lab's approval rule (nulls without one) and the organization's webhooks. `lock`: row-locked on PostgreSQL (SQLite's writes are serial).
 */
export async function findTransitionContext(ex: Executor, actor: Actor, id: string, verifiedOnly: boolean, lock: boolean) {
  const shape = `${actor.role === 'admin' ? 'admin' : 'member'}:${verifiedOnly ? 'verified' : 'any'}:${lock && isPostgres(ex) ? 'lock' : 'none'}`;
  return (await transitionContext(ex, shape, id, actor.organizationId, actor.userId))[0];
}

const statusUpdate = precompiled((ex, shape, id: string, from: string, to: string, userId: string, now: string) =>
  ex
    .updateTable('order_requests')
    .set({ status: to as OrderStatus, updated_by: userId, updated_at: now, ...(shape === 'ordered' ? { ordered_at: now } : {}) })
    .where('id', '=', id)
    .where('status', '=', from as OrderStatus)
    .returningAll(),
);

/**
 * Moves the status only if it is still `from` (so two concurrent transitions cannot both apply), and dates the
 * request's spend when `ordered` (it enters ORDERED from CREATED or APPROVED); returns the new row, none if it moved.
 */
export const statusUpdateQuery = (
  ex: Executor,
  id: string,
  from: OrderStatus,
  to: OrderStatus,
  userId: string,
  now: string,
  ordered: boolean,
) => statusUpdate.bind(ex, ordered ? 'ordered' : 'plain', id, from, to, userId, now);

const recentHistoryWithUsers = precompiled((ex, _shape, orderId: string, limit: number) =>
  ex
    .selectFrom('order_request_events as h')
    .innerJoin('users', 'users.id', 'h.created_by')
    .select(['h.type', 'h.comment', 'h.created_at', 'h.created_by', 'users.first_name', 'users.last_name', 'users.email'])
    .where('h.order_request_id', '=', orderId)
    .orderBy('h.created_at', 'desc')
    .orderBy('h.id', 'desc')
    .limit(limit),
);

/** The newest `limit` entries of a request's history with who made each, oldest first, in one statement. */
export async function recentHistoryWithUsersOf(ex: Executor, orderId: string, limit: number) {
  return (await recentHistoryWithUsers(ex, 'row', orderId, limit)).reverse();
}
