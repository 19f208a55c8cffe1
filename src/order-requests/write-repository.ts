import type { CompiledQuery } from 'kysely';
import { subscribersJson } from '../delivery/webhook-repository.js';
import { labIsVisible } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import { precompiled } from '../shared/db/precompiled.js';
import type { OrderRequestEventsTable, OrderRequestsTable } from '../shared/db/schema.js';

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
