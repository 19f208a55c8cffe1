import { emitEvent } from '../events/outbox.js';
import { findLabRow } from '../labs/repository.js';
import { type AuditEntry, recordAudit } from '../operators/service.js';
import { applyDetailsIn, withTracking } from '../order-requests/details.js';
import * as orders from '../order-requests/repository.js';
import { transitionIn } from '../order-requests/service.js';
import type { OperatorActor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, type FieldError, notFound, validation } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Page } from '../shared/pagination.js';
import { isDate, nowIso } from '../shared/time.js';
import { renderFulfilmentLines, renderLine, renderShipment } from './render.js';
import * as repo from './repository.js';
import {
  estimatedDates,
  isFullyDelivered,
  type LineState,
  REQUEST_STATUS_OF_LINE,
  refuseBackorder,
  refuseCancel,
  refuseShipment,
  statusAfterShipment,
} from './rules.js';
import type { BackorderBody, CancelLineBody, DeliverBody, FulfilmentLine, LineStatus, ShipBody, Shipment } from './schemas.js';

// Shop fulfilment (docs/product.md §6) by service operators only (docs/decisions/0004-operators.md): every function takes
// an OperatorActor, which only an operator token (src/server/app.ts) or the command line (src/cli/shop.ts) makes.
// Each action is audited: in the transaction of its change when it succeeds, on its own when it is refused.

/** Runs an action; a refusal (an AppError) is audited with its code as the outcome before it is rethrown. */
async function audited<T>(deps: ServiceDeps, who: OperatorActor, entry: AuditEntry, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    // Best effort: if the database itself failed, the original error is the one to report.
    if (err instanceof AppError) await recordAudit(deps.db, who, { ...entry, outcome: err.code }).catch(() => undefined);
    throw err;
  }
}

export async function listOpenLines(deps: ServiceDeps, who: OperatorActor, filter: { statuses?: LineStatus[] }, page: Page) {
  const { total, rows } = await repo.listLines(deps.db, filter, page);
  const lines = await renderFulfilmentLines(deps.db, rows);
  await recordAudit(deps.db, who, {
    action: 'lines.list',
    detail: {
      statuses: filter.statuses ?? [],
      page: page.page,
      per_page: page.perPage,
      returned: lines.length,
      line_ids: lines.map((l) => l.id),
    },
  });
  return { total, lines };
}

interface LineContext {
  line: repo.LineRow;
  state: LineState;
  organizationId: string;
  labId: string;
}

/** Reads a line for change, locked against other operators, with what has shipped and been delivered. */
async function lineForChange(trx: Executor, lineId: string): Promise<LineContext> {
  const line = await repo.findLineForUpdate(trx, lineId);
  if (!line) throw notFound('sales order item');
  const shipments = await repo.shipmentsOfLines(trx, [line.id]);
  const order = (await repo.findSalesOrder(trx, line.sales_order_id))!;
  const lab = (await findLabRow(trx, order.lab_id))!;
  return {
    line,
    state: {
      status: line.status as LineStatus,
      quantity: line.quantity,
      shipped: shipments.reduce((n, s) => n + s.quantity, 0),
      delivered: shipments.filter((s) => s.delivered_at !== null).reduce((n, s) => n + s.quantity, 0),
    },
    organizationId: lab.organization_id,
    labId: lab.id,
  };
}

async function setLine(trx: Executor, ctx: LineContext, set: Partial<repo.LineRow>): Promise<repo.LineRow> {
  if (!(await repo.updateLine(trx, ctx.line.id, ctx.line.status, { ...set, updated_at: nowIso() }))) {
    throw new AppError('conflict', 'The line changed at the same time; fetch it again and retry');
  }
  return (await repo.findLine(trx, ctx.line.id))!;
}

/** Brings the line's request to the status the line implies (docs/product.md §6), with the backorder date. */
async function followLine(trx: Executor, deps: ServiceDeps, who: OperatorActor, line: repo.LineRow): Promise<void> {
  const request = (await orders.findOrder(trx, line.order_request_id))!;
  const target = REQUEST_STATUS_OF_LINE[line.status as LineStatus];
  const expected = target === 'BACKORDERED' ? line.backordered_expected_at : null;
  if (request.backordered_expected_at !== expected) await orders.setBackorderedExpectedAt(trx, request.id, expected, who.userId, nowIso());
  if (request.status !== target) {
    await transitionIn(trx, deps, who, { ...request, backordered_expected_at: expected }, target, {
      comment: `shop line ${line.status.toLowerCase().replace('_', ' ')}`,
    });
  }
}

/** Emits the line's event (the contract's shop order item, for the tenant) and returns the operator's view. */
async function emitLine(
  trx: Executor,
  deps: ServiceDeps,
  ctx: LineContext,
  type: 'sales-order-item.shipped' | 'sales-order-item.delivered' | 'sales-order-item.backordered' | 'sales-order-item.cancelled',
  line: repo.LineRow,
): Promise<FulfilmentLine> {
  const rendered = await renderLine(trx, deps.config.appUrl, line);
  await emitEvent(trx, deps.config, { type, organizationId: ctx.organizationId, labId: ctx.labId, resource: rendered });
  return (await renderFulfilmentLines(trx, [line]))[0]!;
}

/** Adds a shipment to a line: shipment.created and sales-order-item.shipped. */
export async function shipLine(deps: ServiceDeps, who: OperatorActor, lineId: string, input: ShipBody): Promise<Shipment> {
  const entry = {
    action: 'line.ship',
    lineId,
    detail: { carrier: input.carrier, tracking: input.tracking, quantity: input.quantity, shipped_at: input.shipped_at ?? null },
  };
  return audited(deps, who, entry, async () => {
    const errors: FieldError[] = [];
    for (const field of ['carrier', 'tracking'] as const)
      if (input[field].trim() === '') errors.push({ field, message: 'must not be empty' });
    if (input.shipped_at !== undefined && Number.isNaN(Date.parse(input.shipped_at)))
      errors.push({ field: 'shipped_at', message: 'must be a date-time' });
    if (errors.length > 0) throw validation(errors);
    return deps.db.transaction().execute(async (trx) => {
      const ctx = await lineForChange(trx, lineId);
      const refused = refuseShipment(ctx.state, input.quantity);
      if (refused) throw new AppError('conflict', `Cannot ship: ${refused}`);
      const now = nowIso();
      const shipment: repo.ShipmentRow = {
        id: newId(),
        sales_order_item_id: ctx.line.id,
        carrier: input.carrier.trim(),
        tracking: input.tracking.trim(),
        quantity: input.quantity,
        shipped_at: input.shipped_at ? new Date(input.shipped_at).toISOString() : now,
        delivered_at: null,
        created_at: now,
      };
      await repo.insertShipment(trx, shipment);
      const request = (await orders.findOrder(trx, ctx.line.order_request_id))!;
      await applyDetailsIn(
        trx,
        deps,
        who,
        request,
        { tracking_number: withTracking(request.tracking_number, shipment.tracking) },
        {
          comment: `shipped by ${shipment.carrier}`,
        },
      );
      const status = statusAfterShipment(ctx.state, input.quantity);
      const line = await setLine(trx, ctx, status === 'SHIPPED' ? { status, backordered_expected_at: null } : { status });
      await followLine(trx, deps, who, line);
      const rendered = await renderShipment(trx, shipment);
      await emitEvent(trx, deps.config, {
        type: 'shipment.created',
        organizationId: ctx.organizationId,
        labId: ctx.labId,
        resource: rendered,
      });
      await emitLine(trx, deps, ctx, 'sales-order-item.shipped', line);
      await recordAudit(trx, who, { ...entry, shipmentId: shipment.id });
      return rendered;
    });
  });
}

/**
 * Marks a shipment delivered: shipment.delivered; when the line's last unit arrives, the line is DELIVERED
 * (sales-order-item.delivered) and its request RECEIVED, which puts the goods into the lab's inventory.
 */
export async function deliverShipment(deps: ServiceDeps, who: OperatorActor, shipmentId: string, input: DeliverBody): Promise<Shipment> {
  const entry: AuditEntry = { action: 'shipment.deliver', shipmentId, detail: { delivered_at: input.delivered_at ?? null } };
  return audited(deps, who, entry, async () => {
    if (input.delivered_at !== undefined && Number.isNaN(Date.parse(input.delivered_at)))
      throw validation([{ field: 'delivered_at', message: 'must be a date-time' }]);
    return deps.db.transaction().execute(async (trx) => {
      const found = await repo.findShipment(trx, shipmentId);
      if (!found) throw notFound('shipment');
      entry.lineId = found.sales_order_item_id;
      const ctx = await lineForChange(trx, found.sales_order_item_id);
      const at = input.delivered_at ? new Date(input.delivered_at).toISOString() : nowIso();
      if (at < found.shipped_at)
        throw validation([{ field: 'delivered_at', message: `cannot be before the shipment left (${found.shipped_at})` }]);
      if (!(await repo.markDelivered(trx, found.id, at))) throw new AppError('conflict', `Shipment ${found.id} was already delivered`);
      const shipment = (await repo.findShipment(trx, found.id))!;
      const rendered = await renderShipment(trx, shipment);
      await emitEvent(trx, deps.config, {
        type: 'shipment.delivered',
        organizationId: ctx.organizationId,
        labId: ctx.labId,
        resource: rendered,
      });
      if (isFullyDelivered({ ...ctx.state, delivered: ctx.state.delivered + shipment.quantity })) {
        const line = await setLine(trx, ctx, { status: 'DELIVERED', backordered_expected_at: null });
        await followLine(trx, deps, who, line);
        await emitLine(trx, deps, ctx, 'sales-order-item.delivered', line);
      }
      await recordAudit(trx, who, entry);
      return rendered;
    });
  });
}

/** Backorders what has not shipped: BACKORDERED with an expected date, INDEFINITELY_BACKORDERED without. */
export async function backorderLine(deps: ServiceDeps, who: OperatorActor, lineId: string, input: BackorderBody): Promise<FulfilmentLine> {
  const expected = input.expected_at ?? null;
  const entry = { action: 'line.backorder', lineId, detail: { expected_at: expected } };
  return audited(deps, who, entry, async () => {
    if (expected !== null && !isDate(expected))
      throw validation([{ field: 'expected_at', message: 'must be a calendar date (YYYY-MM-DD)' }]);
    return deps.db.transaction().execute(async (trx) => {
      const ctx = await lineForChange(trx, lineId);
      const refused = refuseBackorder(ctx.state);
      if (refused) throw new AppError('conflict', `Cannot backorder: ${refused}`);
      const dates = expected === null ? { shipment: null, delivery: null } : estimatedDates(expected, 0);
      const line = await setLine(trx, ctx, {
        status: expected === null ? 'INDEFINITELY_BACKORDERED' : 'BACKORDERED',
        backordered_expected_at: expected,
        estimated_shipment_date: dates.shipment,
        estimated_delivery_date: dates.delivery,
      });
      await followLine(trx, deps, who, line);
      const view = await emitLine(trx, deps, ctx, 'sales-order-item.backordered', line);
      await recordAudit(trx, who, entry);
      return view;
    });
  });
}

/** Cancels a line nothing of which has shipped; its request is CANCELLED. */
export async function cancelLine(deps: ServiceDeps, who: OperatorActor, lineId: string, input: CancelLineBody): Promise<FulfilmentLine> {
  const entry = { action: 'line.cancel', lineId, detail: { reason: input.reason ?? null } };
  return audited(deps, who, entry, () =>
    deps.db.transaction().execute(async (trx) => {
      const ctx = await lineForChange(trx, lineId);
      const refused = refuseCancel(ctx.state);
      if (refused) throw new AppError('conflict', `Cannot cancel: ${refused}`);
      const line = await setLine(trx, ctx, {
        status: 'CANCELLED',
        cancel_reason: input.reason?.trim() || null,
        backordered_expected_at: null,
        estimated_shipment_date: null,
        estimated_delivery_date: null,
      });
      await followLine(trx, deps, who, line);
      const view = await emitLine(trx, deps, ctx, 'sales-order-item.cancelled', line);
      await recordAudit(trx, who, entry);
      return view;
    }),
  );
}
