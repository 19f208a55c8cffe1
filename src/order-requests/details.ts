import { emitEvent } from '../events/outbox.js';
import { findLabRow } from '../labs/repository.js';
import type { Actor, OperatorActor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import type { ServiceDeps } from '../shared/deps.js';
import { notFound, validation } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { isDate, nowIso } from '../shared/time.js';
import { type DetailColumns, setDetails } from './details-repository.js';
import type { OrderDetailsPatch } from './details-schemas.js';
import { renderHistory, renderOrder, renderOrderWithHistory } from './render.js';
import * as repo from './repository.js';
import type { OrderRequest, OrderRequestWithHistory } from './schemas.js';
import { checkBudgetIn, resolveSpendCodeIn } from './spend-codes.js';

// Order details (docs/ordering.md, docs/product.md §13): PATCH /order-requests/{id}, and the shop filling the PO
// number, tracking number and unit size. Each change is one history entry (type UPDATED, the comment names every
// changed field with its old and new value) and one Labstock event order-request.updated; the status is never
// touched here, so the contract's status events stay exactly as they were.

const TEXT_FIELDS = [
  'notes',
  'unit_size',
  'invoice_number',
  'requisition_number',
  'confirmation_number',
  'tracking_number',
  'purchase_order_number',
  'shipping_and_handling',
  'details',
] as const;

const COUNTED = ['ORDERED', 'BACKORDERED', 'RECEIVED'];

const shown = (field: keyof DetailColumns, v: unknown): string => (field === 'is_urgent' ? String(v === 1) : JSON.stringify(v ?? null));

/**
 * Applies detail changes to a request inside the caller's transaction (the caller found it, locked where it
 * matters). Only the fields whose value differs count; none: nothing is written or emitted. A new spend tracking code
 * on a request already ordered is checked against its budget (src/order-requests/spend-codes.ts).
 */
export async function applyDetailsIn(
  trx: Executor,
  deps: ServiceDeps,
  by: Actor | OperatorActor,
  row: repo.OrderRow,
  changes: DetailColumns,
  opts: { comment?: string } = {},
): Promise<repo.OrderRow> {
  // expected_delivery_date (migration 0029) is read with the row but is not one of the contract's fields.
  const current = row as repo.OrderRow & { expected_delivery_date?: string | null };
  const was = (k: keyof DetailColumns) => current[k] ?? null;
  const changed = (Object.keys(changes) as (keyof DetailColumns)[]).filter((k) => changes[k] !== undefined && changes[k] !== was(k));
  if (changed.length === 0) return row;
  const set = Object.fromEntries(changed.map((k) => [k, changes[k]])) as DetailColumns;
  const now = nowIso();
  await setDetails(trx, row.id, set, by.userId, now);
  const described = changed.map((k) => `${k}: ${shown(k, was(k))} → ${shown(k, set[k])}`).join('; ');
  await repo.insertHistory(trx, {
    id: newId(),
    order_request_id: row.id,
    type: 'UPDATED',
    comment: opts.comment ? `${opts.comment}: ${described}` : described,
    created_by: by.userId,
    created_at: now,
  });
  const updated = (await repo.findOrder(trx, row.id))!;
  if (changed.includes('spend_tracking_code') && COUNTED.includes(updated.status)) await checkBudgetIn(trx, by, updated, now);
  const lab = (await findLabRow(trx, row.lab_id))!;
  await emitEvent(trx, deps.config, {
    type: 'order-request.updated',
    organizationId: lab.organization_id,
    labId: lab.id,
    resource: await renderOrderWithHistory(trx, deps.config.appUrl, updated),
  });
  return updated;
}

/** A shop product's unit as an order request's unit_size: "500 mL". */
export const unitSizeOf = (product: { unit_amount: string; unit_symbol: string }): string =>
  `${product.unit_amount} ${product.unit_symbol}`;

/** The tracking numbers of every shipment, comma-separated, each once. */
export function withTracking(current: string | null, tracking: string): string {
  const known = current ? current.split(', ') : [];
  return known.includes(tracking) ? current! : [...known, tracking].join(', ');
}

/** A calendar date as the API takes it (the schema's format checks only the shape: 2026-02-30 is refused here). */
export function checkedDate(value: string | null): string | null {
  if (value !== null && !isDate(value))
    throw validation([{ field: 'expected_delivery_date', message: 'must be a calendar date (YYYY-MM-DD)' }]);
  return value;
}

/** PATCH /order-requests/{id}: the detail fields; "" or null clears a text field. */
export async function updateOrderDetails(deps: ServiceDeps, actor: Actor, id: string, patch: OrderDetailsPatch): Promise<OrderRequest> {
  return deps.db.transaction().execute(async (trx) => {
    // Locked, so two concurrent edits each record the value they replaced.
    const row = await repo.findVisibleOrderForUpdate(trx, actor, id);
    if (!row) throw notFound('order request');
    const changes: DetailColumns = {};
    for (const field of TEXT_FIELDS) {
      const value = patch[field];
      if (value !== undefined) changes[field] = value === null || value.trim() === '' ? null : value.trim();
    }
    if (patch.expected_delivery_date !== undefined) changes.expected_delivery_date = checkedDate(patch.expected_delivery_date);
    if (patch.is_urgent !== undefined) changes.is_urgent = patch.is_urgent ? 1 : 0;
    if (patch.spend_tracking_code !== undefined) {
      changes.spend_tracking_code = await resolveSpendCodeIn(trx, row.lab_id, patch.spend_tracking_code, row.currency);
    }
    const updated = await applyDetailsIn(trx, deps, actor, row, changes);
    return renderOrder(trx, deps.config.appUrl, updated);
  });
}

/**
 * GET /order-requests/{id}/history: every entry of the request's history, oldest first (its moves, details changes,
 * over-budget notes), in the shape of the webhook payloads' `events`, which carry only the newest entries
 * (EVENT_HISTORY_LIMIT in src/order-requests/schemas.ts). The contract's GET answers the request without its history,
 * so the application reads it here.
 */
export async function getOrderHistory(deps: ServiceDeps, actor: Actor, id: string): Promise<OrderRequestWithHistory['events']> {
  const row = await repo.findVisibleOrder(deps.db, actor, id);
  if (!row) throw notFound('order request');
  return renderHistory(deps.db, row.id);
}
