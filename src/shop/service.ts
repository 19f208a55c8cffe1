import { emitEvent } from '../events/outbox.js';
import { findLabRow, findVisibleLab } from '../labs/repository.js';
import * as orders from '../order-requests/repository.js';
import { transitionIn } from '../order-requests/service.js';
import { findUser } from '../accounts/repository.js';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, type FieldError, notFound, validation } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Page } from '../shared/pagination.js';
import { isDate, nowIso } from '../shared/time.js';
import { renderLine, renderLines, renderProduct, renderSalesOrder, renderSalesOrders, renderShipment } from './render.js';
import * as repo from './repository.js';
import {
  type CatalogueProduct, CHECKOUT_FROM, computeCharges, estimatedDates, isFullyDelivered, type LineState, newOrderKey,
  refuseBackorder, refuseCancel, refuseShipment, REQUEST_STATUS_OF_LINE, statusAfterShipment,
} from './rules.js';
import type { LineStatus, PaymentMethod, SalesOrder, SalesOrderItem, Shipment, VendorProduct } from './schemas.js';

// The shop (PRODUCT §6): labs check order requests out into sales orders; service operators fulfil the lines;
// each request follows its line. Every change and its events commit together.

export async function listProducts(deps: ServiceDeps, filter: { q?: string; vendor?: string }, page: Page) {
  const { total, rows } = await repo.listProducts(deps.db, filter, page);
  return { total, products: rows.map(renderProduct) };
}

export async function getProduct(deps: ServiceDeps, id: string): Promise<VendorProduct> {
  const row = await repo.findVendorProduct(deps.db, id);
  if (!row) throw notFound('product');
  return renderProduct(row);
}

export interface CheckoutInput {
  lab_id: string;
  order_request_ids: string[];
  payment_method: PaymentMethod;
  purchase_order_number?: string;
  is_test?: boolean;
}

/** One sales order from a lab's shop requests; the requests become ORDERED (emitting order-request.ordered). */
export async function checkout(deps: ServiceDeps, actor: Actor, input: CheckoutInput): Promise<SalesOrder> {
  const errors: FieldError[] = [];
  const po = input.purchase_order_number?.trim();
  if (input.payment_method === 'PURCHASE_ORDER' && !po) errors.push({ field: 'purchase_order_number', message: 'required when payment_method is PURCHASE_ORDER' });
  const seen = new Set<string>();
  input.order_request_ids.forEach((id, i) => {
    if (seen.has(id)) errors.push({ field: `order_request_ids/${i}`, message: `${id} is listed twice` });
    seen.add(id);
  });
  if (errors.length > 0) throw validation(errors);

  return deps.db.transaction().execute(async (trx) => {
    const lab = await findVisibleLab(trx, actor, input.lab_id);
    if (!lab) throw notFound('lab');
    const rows = await orders.ordersByIds(trx, input.order_request_ids, lab.id);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const missing = input.order_request_ids.filter((id) => !byId.has(id));
    if (missing.length > 0) throw notFound(`order request ${missing.join(', ')} in that lab`);
    const requests = input.order_request_ids.map((id) => byId.get(id)!);

    input.order_request_ids.forEach((id, i) => {
      if (byId.get(id)!.vendor_product_id === null) errors.push({ field: `order_request_ids/${i}`, message: `order request ${id} has no vendor_product_id, so the shop cannot sell it` });
    });
    if (errors.length > 0) throw validation(errors);
    const wrongState = requests.filter((r) => !CHECKOUT_FROM.includes(r.status));
    if (wrongState.length > 0) {
      throw new AppError('conflict', `Only CREATED or APPROVED requests can be checked out: ${wrongState.map((r) => `${r.id} is ${r.status}`).join('; ')}`);
    }
    const already = await repo.checkedOutRequests(trx, input.order_request_ids);
    if (already.size > 0) throw new AppError('conflict', `Already checked out: ${[...already].join(', ')}`);

    const products = await repo.productsByIds(trx, requests.map((r) => r.vendor_product_id!));
    const gone = requests.filter((r) => !products.has(r.vendor_product_id!));
    if (gone.length > 0) throw notFound(`vendor product ${gone.map((r) => r.vendor_product_id).join(', ')}`);
    const currencies = new Set([...products.values()].map((p) => p.currency));
    if (currencies.size > 1) {
      throw validation([{ field: 'order_request_ids', message: `the products are priced in ${[...currencies].join(' and ')}; one order has one currency, so check them out separately` }]);
    }
    const currency = [...currencies][0]!;

    const now = nowIso();
    const estimate = estimatedDates(now.slice(0, 10), deps.config.shopShipDays);
    const lines: repo.LineRow[] = requests.map((r) => ({
      id: newId(), sales_order_id: '', order_request_id: r.id, vendor_product_id: r.vendor_product_id!, status: 'PLACED',
      quantity: Number(r.quantity), sell_price_amount: products.get(r.vendor_product_id!)!.price_amount, currency,
      estimated_shipment_date: estimate.shipment, estimated_delivery_date: estimate.delivery, created_at: now, updated_at: now,
      backordered_expected_at: null, cancel_reason: null,
    }));
    const charges = computeCharges(lines.map((l) => ({ unitMinor: l.sell_price_amount, quantity: l.quantity })), currency, {
      shipping: deps.config.shopShipping, handling: deps.config.shopHandling, taxRate: deps.config.shopTaxRate,
    });
    let key = newOrderKey();
    for (let tries = 0; await repo.orderKeyExists(trx, key); tries++) {
      if (tries > 5) throw new Error('could not find a free sales order key');
      key = newOrderKey();
    }
    const order: repo.SalesOrderRow = {
      id: newId(), key, lab_id: lab.id, payment_method: input.payment_method, purchase_order_number: po || null, is_test: input.is_test ? 1 : 0,
      shipping_amount: charges.shipping, handling_amount: charges.handling, tax_amount: charges.tax, total_amount: charges.total, currency,
      placed_by: actor.userId, created_at: now,
    };
    for (const l of lines) l.sales_order_id = order.id;
    await repo.insertSalesOrder(trx, order, lines);
    for (const r of requests) await transitionIn(trx, deps, actor.userId, r, 'ORDERED', { comment: `checked out in shop order ${key}` });

    const placed = await renderSalesOrder(trx, deps.config.appUrl, order);
    await emitEvent(trx, deps.config, { type: 'sales-order.placed', organizationId: lab.organization.id, labId: lab.id, resource: placed });
    return placed;
  });
}

export async function listSalesOrders(deps: ServiceDeps, actor: Actor, filter: { labId?: string }, page: Page) {
  const { total, rows } = await repo.listVisibleSalesOrders(deps.db, actor, filter, page);
  return { total, orders: await renderSalesOrders(deps.db, deps.config.appUrl, rows) };
}

export async function getSalesOrder(deps: ServiceDeps, actor: Actor, id: string): Promise<SalesOrder> {
  const row = await repo.findVisibleSalesOrder(deps.db, actor, id);
  if (!row) throw notFound('sales order');
  return renderSalesOrder(deps.db, deps.config.appUrl, row);
}

// ---- Fulfilment: service operators only ----

/** Resolves who fulfils: an operator's token, or a user named on the CLI who must be an operator. */
export async function operatorUserId(deps: ServiceDeps, who: Actor | string): Promise<string> {
  if (typeof who !== 'string') {
    if (!who.isOperator) throw new AppError('forbidden', 'Shop fulfilment is done by service operators');
    return who.userId;
  }
  const user = await findUser(deps.db, who);
  if (!user) throw notFound('user');
  if (user.is_operator !== 1) throw new AppError('forbidden', `User ${who} is not a service operator (admin user create --operator)`);
  return user.id;
}

export async function listOpenLines(deps: ServiceDeps, who: Actor | string, filter: { statuses?: LineStatus[] }, page: Page) {
  await operatorUserId(deps, who);
  const { total, rows } = await repo.listLines(deps.db, filter, page);
  return { total, lines: await renderLines(deps.db, deps.config.appUrl, rows) };
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
      status: line.status as LineStatus, quantity: line.quantity,
      shipped: shipments.reduce((n, s) => n + s.quantity, 0),
      delivered: shipments.filter((s) => s.delivered_at !== null).reduce((n, s) => n + s.quantity, 0),
    },
    organizationId: lab.organization_id, labId: lab.id,
  };
}

async function setLine(trx: Executor, ctx: LineContext, set: Partial<repo.LineRow>): Promise<repo.LineRow> {
  if (!(await repo.updateLine(trx, ctx.line.id, ctx.line.status, { ...set, updated_at: nowIso() }))) {
    throw new AppError('conflict', 'The line changed at the same time; fetch it again and retry');
  }
  return (await repo.findLine(trx, ctx.line.id))!;
}

/** Brings the line's request to the status the line implies (PRODUCT §6), with the backorder date. */
async function followLine(trx: Executor, deps: ServiceDeps, userId: string, line: repo.LineRow): Promise<void> {
  const request = (await orders.findOrder(trx, line.order_request_id))!;
  const target = REQUEST_STATUS_OF_LINE[line.status as LineStatus];
  const expected = target === 'BACKORDERED' ? line.backordered_expected_at : null;
  if (request.backordered_expected_at !== expected) await orders.setBackorderedExpectedAt(trx, request.id, expected, userId, nowIso());
  if (request.status !== target) {
    await transitionIn(trx, deps, userId, { ...request, backordered_expected_at: expected }, target, { comment: `shop line ${line.status.toLowerCase().replace('_', ' ')}` });
  }
}

async function emitLine(trx: Executor, deps: ServiceDeps, ctx: LineContext, type: 'sales-order-item.shipped' | 'sales-order-item.delivered' | 'sales-order-item.backordered' | 'sales-order-item.cancelled', line: repo.LineRow): Promise<SalesOrderItem> {
  const rendered = await renderLine(trx, deps.config.appUrl, line);
  await emitEvent(trx, deps.config, { type, organizationId: ctx.organizationId, labId: ctx.labId, resource: rendered });
  return rendered;
}

export interface ShipInput {
  carrier: string;
  tracking: string;
  quantity: number;
  shipped_at?: string;
}

/** Adds a shipment to a line: shipment.created and sales-order-item.shipped. */
export async function shipLine(deps: ServiceDeps, who: Actor | string, lineId: string, input: ShipInput): Promise<Shipment> {
  const userId = await operatorUserId(deps, who);
  const errors: FieldError[] = [];
  for (const field of ['carrier', 'tracking'] as const) if (input[field].trim() === '') errors.push({ field, message: 'must not be empty' });
  if (input.shipped_at !== undefined && Number.isNaN(Date.parse(input.shipped_at))) errors.push({ field: 'shipped_at', message: 'must be a date-time' });
  if (errors.length > 0) throw validation(errors);
  return deps.db.transaction().execute(async (trx) => {
    const ctx = await lineForChange(trx, lineId);
    const refused = refuseShipment(ctx.state, input.quantity);
    if (refused) throw new AppError('conflict', `Cannot ship: ${refused}`);
    const now = nowIso();
    const shipment: repo.ShipmentRow = {
      id: newId(), sales_order_item_id: ctx.line.id, carrier: input.carrier.trim(), tracking: input.tracking.trim(), quantity: input.quantity,
      shipped_at: input.shipped_at ? new Date(input.shipped_at).toISOString() : now, delivered_at: null, created_at: now,
    };
    await repo.insertShipment(trx, shipment);
    const status = statusAfterShipment(ctx.state, input.quantity);
    const line = await setLine(trx, ctx, status === 'SHIPPED' ? { status, backordered_expected_at: null } : { status });
    await followLine(trx, deps, userId, line);
    const rendered = await renderShipment(trx, shipment);
    await emitEvent(trx, deps.config, { type: 'shipment.created', organizationId: ctx.organizationId, labId: ctx.labId, resource: rendered });
    await emitLine(trx, deps, ctx, 'sales-order-item.shipped', line);
    return rendered;
  });
}

/**
 * Marks a shipment delivered: shipment.delivered; when the line's last unit arrives, the line is DELIVERED
 * (sales-order-item.delivered) and its request RECEIVED, which puts the goods into the lab's inventory.
 */
export async function deliverShipment(deps: ServiceDeps, who: Actor | string, shipmentId: string, input: { delivered_at?: string }): Promise<Shipment> {
  const userId = await operatorUserId(deps, who);
  if (input.delivered_at !== undefined && Number.isNaN(Date.parse(input.delivered_at))) throw validation([{ field: 'delivered_at', message: 'must be a date-time' }]);
  return deps.db.transaction().execute(async (trx) => {
    const found = await repo.findShipment(trx, shipmentId);
    if (!found) throw notFound('shipment');
    const ctx = await lineForChange(trx, found.sales_order_item_id);
    const at = input.delivered_at ? new Date(input.delivered_at).toISOString() : nowIso();
    if (at < found.shipped_at) throw validation([{ field: 'delivered_at', message: `cannot be before the shipment left (${found.shipped_at})` }]);
    if (!(await repo.markDelivered(trx, found.id, at))) throw new AppError('conflict', `Shipment ${found.id} was already delivered`);
    const shipment = (await repo.findShipment(trx, found.id))!;
    const rendered = await renderShipment(trx, shipment);
    await emitEvent(trx, deps.config, { type: 'shipment.delivered', organizationId: ctx.organizationId, labId: ctx.labId, resource: rendered });
    if (isFullyDelivered({ ...ctx.state, delivered: ctx.state.delivered + shipment.quantity })) {
      const line = await setLine(trx, ctx, { status: 'DELIVERED', backordered_expected_at: null });
      await followLine(trx, deps, userId, line);
      await emitLine(trx, deps, ctx, 'sales-order-item.delivered', line);
    }
    return rendered;
  });
}

/** Backorders what has not shipped: BACKORDERED with an expected date, INDEFINITELY_BACKORDERED without. */
export async function backorderLine(deps: ServiceDeps, who: Actor | string, lineId: string, input: { expected_at?: string | null }): Promise<SalesOrderItem> {
  const userId = await operatorUserId(deps, who);
  const expected = input.expected_at ?? null;
  if (expected !== null && !isDate(expected)) throw validation([{ field: 'expected_at', message: 'must be a calendar date (YYYY-MM-DD)' }]);
  return deps.db.transaction().execute(async (trx) => {
    const ctx = await lineForChange(trx, lineId);
    const refused = refuseBackorder(ctx.state);
    if (refused) throw new AppError('conflict', `Cannot backorder: ${refused}`);
    const dates = expected === null ? { shipment: null, delivery: null } : estimatedDates(expected, 0);
    const line = await setLine(trx, ctx, {
      status: expected === null ? 'INDEFINITELY_BACKORDERED' : 'BACKORDERED', backordered_expected_at: expected,
      estimated_shipment_date: dates.shipment, estimated_delivery_date: dates.delivery,
    });
    await followLine(trx, deps, userId, line);
    return emitLine(trx, deps, ctx, 'sales-order-item.backordered', line);
  });
}

/** Cancels a line nothing of which has shipped; its request is CANCELLED. */
export async function cancelLine(deps: ServiceDeps, who: Actor | string, lineId: string, input: { reason?: string }): Promise<SalesOrderItem> {
  const userId = await operatorUserId(deps, who);
  return deps.db.transaction().execute(async (trx) => {
    const ctx = await lineForChange(trx, lineId);
    const refused = refuseCancel(ctx.state);
    if (refused) throw new AppError('conflict', `Cannot cancel: ${refused}`);
    const line = await setLine(trx, ctx, {
      status: 'CANCELLED', cancel_reason: input.reason?.trim() || null, backordered_expected_at: null,
      estimated_shipment_date: null, estimated_delivery_date: null,
    });
    await followLine(trx, deps, userId, line);
    return emitLine(trx, deps, ctx, 'sales-order-item.cancelled', line);
  });
}

/**
 * Loads a catalogue in one transaction (all or nothing), reporting progress per chunk. Rows are checked by the
 * caller first (parseCatalogueRow), so a bad file changes nothing.
 */
export async function importCatalogue(
  deps: ServiceDeps, products: CatalogueProduct[], onProgress: (done: number) => void = () => undefined,
): Promise<{ created: number; updated: number }> {
  const dupes = new Map<string, number>();
  for (const p of products) {
    const k = `${p.vendor_name}\u0000${p.catalog_number}`;
    dupes.set(k, (dupes.get(k) ?? 0) + 1);
  }
  const twice = [...dupes].filter(([, n]) => n > 1).map(([k]) => k.replace('\u0000', ' '));
  if (twice.length > 0) throw validation([{ field: 'catalog_number', message: `listed more than once for the same vendor: ${twice.slice(0, 10).join('; ')}` }]);
  return deps.db.transaction().execute(async (trx) => {
    let created = 0;
    let updated = 0;
    const now = nowIso();
    const STEP = 1000;
    for (let i = 0; i < products.length; i += STEP) {
      const r = await repo.upsertProducts(trx, products.slice(i, i + STEP), now, newId);
      created += r.created;
      updated += r.updated;
      onProgress(Math.min(i + STEP, products.length));
    }
    return { created, updated };
  });
}
