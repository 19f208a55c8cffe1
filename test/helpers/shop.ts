// The shop for every test folder that needs one (no tests here): a catalogue, an operator with a token, shop
// requests and checkouts.

import { expect } from 'vitest';
import { importCatalogue } from '../../src/catalogue/service.js';
import { createOperator, createOperatorToken } from '../../src/operators/service.js';
import { systemActor } from '../../src/shared/actor.js';
import type { Harness } from './harness.js';

export interface ShopFixture {
  /** Product ids by catalog number. */
  products: Record<string, string>;
  /** A service operator principal (no organization) and its lso_ token; userId names it in tenants' history. */
  operator: { id: string; userId: string; token: string; tokenId: string };
}

export const CATALOGUE = [
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
  {
    item_name: 'Tris base 1 kg',
    catalog_number: 'T-100_%',
    vendor_name: 'Roth',
    unit_name: 'kilograms',
    unit_symbol: 'kg',
    unit_amount: '1',
    price_amount: '4990',
    currency: 'EUR',
  },
];

/** The operator is a service principal of no organization (it acts on every organization's orders). */
export async function setupShop(h: Harness): Promise<ShopFixture> {
  await importCatalogue(h.deps, systemActor('cli'), CATALOGUE);
  const rows = await h.deps.db.selectFrom('vendor_products').select(['id', 'catalog_number']).execute();
  const products = Object.fromEntries(rows.map((r) => [r.catalog_number, r.id]));
  const op = await createOperator(h.deps.db, systemActor('cli'), {
    email: 'operator@labstock.test',
    firstName: 'Opal',
    lastName: 'Operator',
  });
  const token = await createOperatorToken(h.deps.db, systemActor('cli'), { operator: op.id, name: 'operator' });
  return { products, operator: { id: op.id, userId: op.user_id, token: token.token, tokenId: token.id } };
}

let seq = 0;
/** Creates a shop order request (through the API) for a product in a lab; returns its id. */
export async function shopRequest(
  h: Harness,
  token: string,
  lab: { id: string; typeId: string },
  productId: string,
  quantity = 2,
): Promise<string> {
  seq += 1;
  const res = await h.call(token, {
    method: 'POST',
    url: '/order-requests',
    payload: {
      lab_id: lab.id,
      type_id: lab.typeId,
      name: `Shop thing ${seq}`,
      vendor_name: 'Labstock Shop',
      catalog_number: `SHOP-${seq}`,
      vendor_product_id: productId,
      price: { amount: '1000', currency: 'USD' },
      quantity,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

export async function checkoutRequests(h: Harness, token: string, labId: string, ids: string[], extra: Record<string, unknown> = {}) {
  return h.call(token, {
    method: 'POST',
    url: '/shop/orders',
    payload: { lab_id: labId, order_request_ids: ids, payment_method: 'CREDIT_CARD', ...extra },
  });
}

/** Checks out one request and returns the sales order and its only line. */
export async function placeOne(h: Harness, token: string, lab: { id: string; typeId: string }, productId: string, quantity = 2) {
  const requestId = await shopRequest(h, token, lab, productId, quantity);
  const res = await checkoutRequests(h, token, lab.id, [requestId]);
  expect(res.statusCode, res.body).toBe(201);
  const order = res.json();
  return { order, line: order.items[0], requestId };
}
