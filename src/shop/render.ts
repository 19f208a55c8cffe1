import { userSummaries } from '../accounts/repository.js';
import { unitOf } from '../catalogue/render.js';
import { productsByIds } from '../catalogue/repository.js';
import { labsByIds } from '../labs/repository.js';
import { renderOrders } from '../order-requests/render.js';
import { ordersByIds } from '../order-requests/repository.js';
import type { OrderRequest } from '../order-requests/schemas.js';
import type { Executor } from '../shared/db/database.js';
import * as repo from './repository.js';
import type { FulfilmentLine, SalesOrder, SalesOrderItem, Shipment } from './schemas.js';

// Rendering in batches: a page of orders or lines costs a fixed number of queries, whatever its size.

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

export const salesOrderAppUrl = (appUrl: string, id: string): string => `${appUrl}/app/shop/orders/${id}`;
export const lineAppUrl = (appUrl: string, orderId: string, lineId: string): string =>
  `${appUrl}/app/shop/orders/${orderId}#item-${lineId}`;

export async function renderLines(ex: Executor, appUrl: string, lines: repo.LineRow[]): Promise<SalesOrderItem[]> {
  if (lines.length === 0) return [];
  const requestRows = await ordersByIds(
    ex,
    lines.map((l) => l.order_request_id),
  );
  const [products, shipments, requests] = await Promise.all([
    productsByIds(
      ex,
      lines.map((l) => l.vendor_product_id),
    ),
    repo.shipmentsOfLines(
      ex,
      lines.map((l) => l.id),
    ),
    renderOrders(ex, appUrl, requestRows),
  ]);
  const requestById = new Map<string, OrderRequest>(requests.map((r) => [r.id, r]));
  const shipmentsOf = groupBy(shipments, (s) => s.sales_order_item_id);
  return lines.map((l) => {
    const p = products.get(l.vendor_product_id)!;
    return {
      id: l.id,
      app_url: lineAppUrl(appUrl, l.sales_order_id, l.id),
      status: l.status as SalesOrderItem['status'],
      estimated_shipment_date: l.estimated_shipment_date,
      estimated_delivery_date: l.estimated_delivery_date,
      sell_price: { amount: l.sell_price_amount, currency: l.currency },
      quantity: l.quantity,
      product: { id: p.id, item_name: p.item_name, catalog_number: p.catalog_number, unit: unitOf(p) },
      shipments: (shipmentsOf.get(l.id) ?? []).map((s) => ({
        id: s.id,
        carrier: s.carrier,
        tracking: s.tracking,
        quantity: s.quantity,
        shipped_at: s.shipped_at,
        delivered_at: s.delivered_at,
      })),
      request: requestById.get(l.order_request_id)!,
    };
  });
}

export async function renderLine(ex: Executor, appUrl: string, line: repo.LineRow): Promise<SalesOrderItem> {
  return (await renderLines(ex, appUrl, [line]))[0]!;
}

export async function renderSalesOrders(ex: Executor, appUrl: string, orders: repo.SalesOrderRow[]): Promise<SalesOrder[]> {
  if (orders.length === 0) return [];
  const lineRows = await repo.linesOfOrders(
    ex,
    orders.map((o) => o.id),
  );
  const [lines, labs, users] = await Promise.all([
    renderLines(ex, appUrl, lineRows),
    labsByIds(
      ex,
      orders.map((o) => o.lab_id),
    ),
    userSummaries(
      ex,
      orders.map((o) => o.placed_by),
    ),
  ]);
  const linesOf = groupBy(
    lineRows.map((row, i) => ({ row, rendered: lines[i]! })),
    (l) => l.row.sales_order_id,
  );
  return orders.map((o) => {
    const money = (amount: string) => ({ amount, currency: o.currency });
    const own = linesOf.get(o.id) ?? [];
    const subtotal = own.reduce((sum, l) => sum + BigInt(l.row.sell_price_amount) * BigInt(l.row.quantity), 0n);
    return {
      id: o.id,
      key: o.key,
      app_url: salesOrderAppUrl(appUrl, o.id),
      payment_method: o.payment_method as SalesOrder['payment_method'],
      purchase_order_number: o.purchase_order_number,
      is_test: o.is_test === 1,
      subtotal: money(subtotal.toString()),
      shipping: money(o.shipping_amount),
      handling: money(o.handling_amount),
      tax: money(o.tax_amount),
      total: money(o.total_amount),
      lab: labs.get(o.lab_id)!,
      placed_by: users.get(o.placed_by)!,
      placed_at: o.created_at,
      items: own.map((l) => l.rendered),
    };
  });
}

export async function renderSalesOrder(ex: Executor, appUrl: string, order: repo.SalesOrderRow): Promise<SalesOrder> {
  return (await renderSalesOrders(ex, appUrl, [order]))[0]!;
}

export async function renderShipment(ex: Executor, shipment: repo.ShipmentRow): Promise<Shipment> {
  const line = (await repo.findLine(ex, shipment.sales_order_item_id))!;
  const order = (await repo.findSalesOrder(ex, line.sales_order_id))!;
  const lab = (await labsByIds(ex, [order.lab_id])).get(order.lab_id)!;
  return {
    id: shipment.id,
    carrier: shipment.carrier,
    tracking: shipment.tracking,
    quantity: shipment.quantity,
    shipped_at: shipment.shipped_at,
    delivered_at: shipment.delivered_at,
    sales_order_item_id: line.id,
    sales_order: { id: order.id, key: order.key },
    lab,
  };
}

/** Lines as operators see them (FulfilmentLine): a fixed number of queries whatever the page size. */
export async function renderFulfilmentLines(ex: Executor, lines: repo.LineRow[]): Promise<FulfilmentLine[]> {
  if (lines.length === 0) return [];
  const [products, shipments, orders] = await Promise.all([
    productsByIds(
      ex,
      lines.map((l) => l.vendor_product_id),
    ),
    repo.shipmentsOfLines(
      ex,
      lines.map((l) => l.id),
    ),
    repo.salesOrdersByIds(
      ex,
      lines.map((l) => l.sales_order_id),
    ),
  ]);
  const labs = await labsByIds(
    ex,
    [...orders.values()].map((o) => o.lab_id),
  );
  const shipmentsOf = groupBy(shipments, (s) => s.sales_order_item_id);
  return lines.map((l) => {
    const p = products.get(l.vendor_product_id)!;
    const o = orders.get(l.sales_order_id)!;
    const lab = labs.get(o.lab_id)!;
    const own = shipmentsOf.get(l.id) ?? [];
    return {
      id: l.id,
      status: l.status as FulfilmentLine['status'],
      quantity: l.quantity,
      shipped: own.reduce((n, s) => n + s.quantity, 0),
      estimated_shipment_date: l.estimated_shipment_date,
      estimated_delivery_date: l.estimated_delivery_date,
      backordered_expected_at: l.backordered_expected_at,
      cancel_reason: l.cancel_reason,
      product: { id: p.id, item_name: p.item_name, catalog_number: p.catalog_number, vendor_name: p.vendor_name, unit: unitOf(p) },
      shipments: own.map((s) => ({
        id: s.id,
        carrier: s.carrier,
        tracking: s.tracking,
        quantity: s.quantity,
        shipped_at: s.shipped_at,
        delivered_at: s.delivered_at,
      })),
      sales_order: { id: o.id, key: o.key, is_test: o.is_test === 1, placed_at: o.created_at },
      ship_to: { organization: { id: lab.organization.id, name: lab.organization.name }, lab: { id: lab.id, name: lab.name } },
      created_at: l.created_at,
      updated_at: l.updated_at,
    };
  });
}
