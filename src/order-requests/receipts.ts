import { userSummaries } from '../accounts/repository.js';
import { emitEvent } from '../events/outbox.js';
import { receivedIdentifiers } from '../inventory/identifiers.js';
import { findItem, findItemByCatalog } from '../inventory/repository.js';
import { findLabRow } from '../labs/repository.js';
import { locationPaths } from '../locations/repository.js';
import type { Actor } from '../shared/actor.js';
import { dec } from '../shared/decimal.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, notFound, validation } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { isDate, nowIso } from '../shared/time.js';
import { expectedDeliveryOf, receiptsOf } from './receipts-repository.js';
import type { OrderDelivery, ReceiveBody } from './receipts-schemas.js';
import { receiveIn, remainingOf } from './receive-in.js';
import { renderOrder, renderOrderWithHistory } from './render.js';
import * as repo from './repository.js';
import type { OrderRequest } from './schemas.js';
import { refuseIfInShop, transitionIn } from './service.js';

// Receiving, whole or in parts (docs/ordering.md "Ordering, receiving in parts"). Within the contract's table: a
// request stays ORDERED (or BACKORDERED) while parts of it arrive, each part going into the inventory at once, and
// becomes RECEIVED with the part that completes it, which is when order-request.received fires, once.

/** The history entry of a part that does not complete the request (its status does not change). */
export const PARTLY_RECEIVED = 'PARTLY_RECEIVED';

/** POST /order-requests/{id}/receive: all that is still to come, or `quantity` of it, with lot, expiry and location. */
export async function receiveOrder(deps: ServiceDeps, actor: Actor, id: string, body: ReceiveBody): Promise<OrderRequest> {
  if (body.expiration_date !== undefined && !isDate(body.expiration_date))
    throw validation([{ field: 'expiration_date', message: 'must be a calendar date (YYYY-MM-DD)' }]);
  return deps.db.transaction().execute(async (trx) => {
    // Locked, so a concurrent receive waits and then finds what this one received, as a later caller would.
    const row = await repo.findVisibleOrderForUpdate(trx, actor, id);
    if (!row) throw notFound('order request');
    const lab = (await findLabRow(trx, row.lab_id))!;
    if (body.location_id !== undefined && lab.uses_instances !== 1) {
      throw validation([{ field: 'location_id', message: 'this lab does not use instances, so it has no location tree' }]);
    }
    if (row.status === 'RECEIVED')
      throw new AppError('invalid_transition', 'The order request was already received', { extra: { allowed: [] } });
    refuseIfInShop(row);
    if (body.identifiers !== undefined && lab.uses_instances !== 1) {
      throw validation([{ field: 'identifiers', message: 'this lab does not use instances, so there is no container to keep them with' }]);
    }
    const identifiers = receivedIdentifiers(body.identifiers);
    const details = {
      lotNumber: body.lot_number ?? null,
      expirationDate: body.expiration_date ?? null,
      locationId: body.location_id ?? null,
      ...(identifiers ? { identifiers } : {}),
    };
    const remaining = await remainingOf(trx, row);
    const part = body.quantity === undefined ? remaining : String(body.quantity);
    if (dec(part).greaterThan(remaining)) {
      throw validation([{ field: 'quantity', message: `at most ${remaining}: that is what is still to come of ${row.quantity}` }]);
    }
    if (dec(part).equals(remaining) || (row.status !== 'ORDERED' && row.status !== 'BACKORDERED')) {
      // The rest (or a request not ordered yet, which the table refuses with its usual 409).
      const updated = await transitionIn(trx, deps, actor, row, 'RECEIVED', { receive: details });
      return renderOrder(trx, deps.config.appUrl, updated);
    }
    const now = nowIso();
    const historyId = newId();
    const after = dec(remaining).minus(part).toFixed();
    await repo.insertHistory(trx, {
      id: historyId,
      order_request_id: row.id,
      type: PARTLY_RECEIVED,
      comment: `${part} of ${row.quantity} received; ${after} still to come`,
      created_by: actor.userId,
      created_at: now,
    });
    await receiveIn(trx, deps, actor.userId, row, { ...details, quantity: part, historyId, at: now });
    // Not a status change: the Labstock kind that tells of a change to the request, with its newest history.
    await emitEvent(trx, deps.config, {
      type: 'order-request.updated',
      organizationId: lab.organization_id,
      labId: lab.id,
      resource: await renderOrderWithHistory(trx, deps.config.appUrl, row),
    });
    return renderOrder(trx, deps.config.appUrl, row);
  });
}

/** GET /order-requests/{id}/delivery: the expected day, how much arrived, and each receipt with its item and place. */
export async function getDelivery(deps: ServiceDeps, actor: Actor, id: string): Promise<OrderDelivery> {
  const row = await repo.findVisibleOrder(deps.db, actor, id);
  if (!row) throw notFound('order request');
  const [receipts, expected] = await Promise.all([receiptsOf(deps.db, row.id), expectedDeliveryOf(deps.db, row.id)]);
  const [users, paths] = await Promise.all([
    userSummaries(
      deps.db,
      receipts.map((r) => r.received_by),
    ),
    locationPaths(
      deps.db,
      receipts.map((r) => r.location_id),
    ),
  ]);
  const received = receipts.reduce((sum, r) => sum.plus(r.quantity), dec(0));
  // Received before receipts were recorded (migration 0029): all of it, into the lab's item of that product if any.
  const before = row.status === 'RECEIVED' && receipts.length === 0;
  const last = receipts.at(-1)?.item_id;
  const item = last
    ? await findItem(deps.db, last)
    : before
      ? await findItemByCatalog(deps.db, row.lab_id, row.vendor_name, row.catalog_number)
      : undefined;
  return {
    order_request_id: row.id,
    expected_delivery_date: expected,
    quantity: row.quantity,
    received_quantity: before ? row.quantity : received.toFixed(),
    remaining_quantity: before ? '0' : dec(row.quantity).minus(received).toFixed(),
    // An item deleted since is not linked.
    item_id: item?.id ?? null,
    receipts: receipts.map((r) => ({
      id: r.id,
      quantity: r.quantity,
      item_id: r.item_id,
      lot_number: r.lot_number,
      expiration_date: r.expiration_date,
      location: r.location_id ? (paths.get(r.location_id) ?? null) : null,
      received_at: r.received_at,
      received_by: users.get(r.received_by)!,
    })),
  };
}
