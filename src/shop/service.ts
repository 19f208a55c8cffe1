import { productsByIds } from '../catalogue/repository.js';
import { emitEvent } from '../events/outbox.js';
import { findVisibleLab } from '../labs/repository.js';
import { applyDetailsIn, unitSizeOf } from '../order-requests/details.js';
import * as orders from '../order-requests/repository.js';
import { transitionIn } from '../order-requests/service.js';
import type { Actor } from '../shared/actor.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, type FieldError, notFound, validation } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Page } from '../shared/pagination.js';
import { nowIso } from '../shared/time.js';
import { renderSalesOrder, renderSalesOrders } from './render.js';
import * as repo from './repository.js';
import { CHECKOUT_FROM, computeCharges, estimatedDates, newOrderKey } from './rules.js';
import type { CheckoutBody, SalesOrder } from './schemas.js';

// The shop (docs/product.md §6): labs check order requests out into sales orders; service operators fulfil the lines
// (src/shop/fulfilment.ts); each request follows its line. Every change and its events commit together.

/** One sales order from a lab's shop requests; the requests become ORDERED (emitting order-request.ordered). */
export async function checkout(deps: ServiceDeps, actor: Actor, input: CheckoutBody): Promise<SalesOrder> {
  const errors: FieldError[] = [];
  const po = input.purchase_order_number?.trim();
  if (input.payment_method === 'PURCHASE_ORDER' && !po)
    errors.push({ field: 'purchase_order_number', message: 'required when payment_method is PURCHASE_ORDER' });
  const seen = new Set<string>();
  input.order_request_ids.forEach((id, i) => {
    if (seen.has(id)) errors.push({ field: `order_request_ids/${i}`, message: `${id} is listed twice` });
    seen.add(id);
  });
  if (errors.length > 0) throw validation(errors);

  return deps.db.transaction().execute(async (trx) => {
    const lab = await findVisibleLab(trx, actor, input.lab_id);
    if (!lab) throw notFound('lab');
    // Locked: a concurrent checkout or status change of the same requests waits, then sees what it committed.
    const rows = await orders.ordersByIdsForUpdate(trx, input.order_request_ids, lab.id);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const missing = input.order_request_ids.filter((id) => !byId.has(id));
    if (missing.length > 0) throw notFound(`order request ${missing.join(', ')} in that lab`);
    const requests = input.order_request_ids.map((id) => byId.get(id)!);

    input.order_request_ids.forEach((id, i) => {
      if (byId.get(id)!.vendor_product_id === null)
        errors.push({
          field: `order_request_ids/${i}`,
          message: `order request ${id} has no vendor_product_id, so the shop cannot sell it`,
        });
    });
    if (errors.length > 0) throw validation(errors);
    const wrongState = requests.filter((r) => !CHECKOUT_FROM.includes(r.status));
    if (wrongState.length > 0) {
      throw new AppError(
        'conflict',
        `Only CREATED or APPROVED requests can be checked out: ${wrongState.map((r) => `${r.id} is ${r.status}`).join('; ')}`,
      );
    }
    const already = await repo.checkedOutRequests(trx, input.order_request_ids);
    if (already.size > 0) throw new AppError('conflict', `Already checked out: ${[...already].join(', ')}`);

    const products = await productsByIds(
      trx,
      requests.map((r) => r.vendor_product_id!),
    );
    const gone = requests.filter((r) => !products.has(r.vendor_product_id!));
    if (gone.length > 0) throw notFound(`vendor product ${gone.map((r) => r.vendor_product_id).join(', ')}`);
    const currencies = new Set([...products.values()].map((p) => p.currency));
    if (currencies.size > 1) {
      throw validation([
        {
          field: 'order_request_ids',
          message: `the products are priced in ${[...currencies].join(' and ')}; one order has one currency, so check them out separately`,
        },
      ]);
    }
    const currency = [...currencies][0]!;

    const now = nowIso();
    const estimate = estimatedDates(now.slice(0, 10), deps.config.shopShipDays);
    const lines: repo.LineRow[] = requests.map((r) => ({
      id: newId(),
      sales_order_id: '',
      order_request_id: r.id,
      vendor_product_id: r.vendor_product_id!,
      status: 'PLACED',
      quantity: Number(r.quantity),
      sell_price_amount: products.get(r.vendor_product_id!)!.price_amount,
      currency,
      estimated_shipment_date: estimate.shipment,
      estimated_delivery_date: estimate.delivery,
      created_at: now,
      updated_at: now,
      backordered_expected_at: null,
      cancel_reason: null,
    }));
    const charges = computeCharges(
      lines.map((l) => ({ unitMinor: l.sell_price_amount, quantity: l.quantity })),
      currency,
      {
        shipping: deps.config.shopShipping,
        handling: deps.config.shopHandling,
        taxRate: deps.config.shopTaxRate,
      },
    );
    let key = newOrderKey();
    for (let tries = 0; await repo.orderKeyExists(trx, key); tries++) {
      if (tries > 5) throw new Error('could not find a free sales order key');
      key = newOrderKey();
    }
    const order: repo.SalesOrderRow = {
      id: newId(),
      key,
      lab_id: lab.id,
      payment_method: input.payment_method,
      purchase_order_number: po || null,
      is_test: input.is_test ? 1 : 0,
      shipping_amount: charges.shipping,
      handling_amount: charges.handling,
      tax_amount: charges.tax,
      total_amount: charges.total,
      currency,
      placed_by: actor.userId,
      created_at: now,
    };
    for (const l of lines) l.sales_order_id = order.id;
    await repo.insertSalesOrder(trx, order, lines);
    // In this transaction, so a request is marked exactly when its line exists (docs/decisions/0008-shop-and-order-requests.md).
    for (const l of lines) await orders.markCheckedOut(trx, l.order_request_id, l.id);
    for (const r of requests) {
      // The shop fills what it knows (docs/ordering.md) before the request is ordered, so the ordered event shows it.
      const product = products.get(r.vendor_product_id!)!;
      const detailed = await applyDetailsIn(
        trx,
        deps,
        actor,
        r,
        { purchase_order_number: po || undefined, unit_size: r.unit_size ?? unitSizeOf(product) },
        { comment: `checked out in shop order ${key}` },
      );
      await transitionIn(trx, deps, actor, detailed, 'ORDERED', { comment: `checked out in shop order ${key}` });
    }

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
