import { findProductIdByKey, upsertProducts } from '../catalogue/repository.js';
import { findOrder } from '../order-requests/repository.js';
import { createOrder, transitionIn } from '../order-requests/service.js';
import type { Actor } from '../shared/actor.js';
import type { OrderStatus } from '../shared/db/schema.js';
import type { ServiceDeps } from '../shared/deps.js';
import { newId } from '../shared/ids.js';
import { nowIso } from '../shared/time.js';
import { checkout } from '../shop/service.js';

/** The demo's order requests and shop, as src/demo/seed.ts reports them. */
export interface DemoShop {
  order_request_ids: Record<string, string>;
  vendor_product_ids: string[];
  /** A shop order placed by the member, waiting for the operator to ship it. */
  sales_order_id: string;
  sales_order_item_id: string;
}

/**
 * The demo's ordering side, after its labs, types and inventory (src/demo/seed.ts): a small shop catalogue, order
 * requests by the member in every state (moved along by the admin), and one shop order checked out by the member.
 */
export async function seedOrdersAndShop(
  deps: ServiceDeps,
  demo: {
    admin: Actor;
    member: Actor;
    legacyLabId: string;
    migratedLabId: string;
    types: { reagent: string; antibody: string; enzyme: string };
  },
): Promise<DemoShop> {
  const { types } = demo;
  const now = nowIso();
  const catalogue = [
    {
      item_name: 'Phusion High-Fidelity DNA Polymerase',
      catalog_number: 'M0530S',
      vendor_name: 'New England Biolabs',
      unit_name: 'units',
      unit_symbol: 'U',
      unit_amount: '100',
      price_amount: '27900',
      currency: 'USD',
    },
    {
      item_name: 'Falcon 50 mL conical tubes',
      catalog_number: '352070',
      vendor_name: 'Corning',
      unit_name: 'pieces',
      unit_symbol: 'pcs',
      unit_amount: '500',
      price_amount: '24850',
      currency: 'USD',
    },
    {
      item_name: 'Agarose, molecular biology grade',
      catalog_number: 'A9539',
      vendor_name: 'Sigma-Aldrich',
      unit_name: 'grams',
      unit_symbol: 'g',
      unit_amount: '100',
      price_amount: '15600',
      currency: 'USD',
    },
  ];
  await upsertProducts(deps.db, catalogue, now, newId);
  const productIds: string[] = [];
  for (const p of catalogue) {
    const row = await findProductIdByKey(deps.db, p.vendor_name, p.catalog_number);
    if (!row) throw new Error(`the demo product ${p.vendor_name} ${p.catalog_number} was not stored`);
    productIds.push(row.id);
  }

  const actor = demo.member;
  const orders: Record<string, string> = {};
  const plans: {
    name: string;
    vendor: string;
    catalog: string;
    lab: string;
    type: string;
    amount: string;
    qty: number;
    path: OrderStatus[];
    product?: string;
  }[] = [
    {
      name: 'Anti-GFP antibody',
      vendor: 'Abcam',
      catalog: 'ab290',
      lab: demo.migratedLabId,
      type: types.antibody,
      amount: '41500',
      qty: 1,
      path: [],
    },
    {
      name: 'Phusion High-Fidelity DNA Polymerase',
      vendor: 'New England Biolabs',
      catalog: 'M0530S',
      lab: demo.migratedLabId,
      type: types.enzyme,
      amount: '27900',
      qty: 2,
      path: ['APPROVED'],
      product: productIds[0],
    },
    {
      name: 'Ethanol absolute',
      vendor: 'Sigma-Aldrich',
      catalog: 'E7023',
      lab: demo.legacyLabId,
      type: types.reagent,
      amount: '4250',
      qty: 4,
      path: ['APPROVED', 'ORDERED'],
    },
    {
      name: 'Agarose, molecular biology grade',
      vendor: 'Sigma-Aldrich',
      catalog: 'A9539',
      lab: demo.migratedLabId,
      type: types.enzyme,
      amount: '15600',
      qty: 1,
      path: ['ORDERED', 'BACKORDERED'],
      product: productIds[2],
    },
    {
      name: 'EcoRI-HF',
      vendor: 'New England Biolabs',
      catalog: 'R3101S',
      lab: demo.migratedLabId,
      type: types.enzyme,
      amount: '7800',
      qty: 3,
      path: ['APPROVED', 'ORDERED', 'RECEIVED'],
    },
    {
      name: 'Acetone',
      vendor: 'Fisher',
      catalog: 'A18-4',
      lab: demo.legacyLabId,
      type: types.reagent,
      amount: '6120',
      qty: 1,
      path: ['CANCELLED'],
    },
  ];
  for (const plan of plans) {
    const order = await createOrder(deps, actor, {
      lab_id: plan.lab,
      type_id: plan.type,
      name: plan.name,
      vendor_name: plan.vendor,
      catalog_number: plan.catalog,
      price: { amount: plan.amount, currency: 'USD' },
      quantity: plan.qty,
      ...(plan.product ? { vendor_product_id: plan.product } : {}),
    });
    for (const status of plan.path) {
      await deps.db.transaction().execute(async (trx) => {
        await transitionIn(trx, deps, demo.admin, (await findOrder(trx, order.id))!, status);
      });
    }
    orders[plan.path.at(-1) ?? 'CREATED'] = order.id;
  }

  const tubes = await createOrder(deps, actor, {
    lab_id: demo.migratedLabId,
    type_id: types.enzyme,
    name: 'Falcon 50 mL conical tubes',
    vendor_name: 'Corning',
    catalog_number: '352070',
    price: { amount: '24850', currency: 'USD' },
    quantity: 2,
    vendor_product_id: productIds[1]!,
  });
  const sale = await checkout(deps, actor, {
    lab_id: demo.migratedLabId,
    order_request_ids: [tubes.id],
    payment_method: 'PURCHASE_ORDER',
    purchase_order_number: 'PO-DEMO-1',
  });

  return {
    order_request_ids: orders,
    vendor_product_ids: productIds,
    sales_order_id: sale.id,
    sales_order_item_id: sale.items[0]!.id,
  };
}
