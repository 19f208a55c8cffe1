// Shared setup for the shop tests (no tests in here): a catalogue, an operator with a token, and shop requests.
import { afterAll, beforeAll, expect } from 'vitest';
import { createToken, createUser } from '../../../src/accounts/service.js';
import { importCatalogue } from '../../../src/shop/service.js';
import { type Harness, startHarness } from '../../helpers/harness.js';

export interface ShopFixture {
  /** Product ids by catalog number. */
  products: Record<string, string>;
  operator: { id: string; token: string };
}

export const CATALOGUE = [
  { item_name: 'Phusion High-Fidelity DNA Polymerase', catalog_number: 'M0530S', vendor_name: 'New England Biolabs', unit_name: 'units', unit_symbol: 'U', unit_amount: '100', price_amount: '27900', currency: 'USD' },
  { item_name: 'Falcon 50 mL conical tubes', catalog_number: '352070', vendor_name: 'Corning', unit_name: 'pieces', unit_symbol: 'pcs', unit_amount: '500', price_amount: '24850', currency: 'USD' },
  { item_name: 'Agarose, molecular biology grade', catalog_number: 'A9539', vendor_name: 'Sigma-Aldrich', unit_name: 'grams', unit_symbol: 'g', unit_amount: '100', price_amount: '15600', currency: 'USD' },
  { item_name: 'Tris base 1 kg', catalog_number: 'T-100_%', vendor_name: 'Roth', unit_name: 'kilograms', unit_symbol: 'kg', unit_amount: '1', price_amount: '4990', currency: 'EUR' },
];

/** The operator is a user of organization A's org (operators act on every organization's orders). */
export async function setupShop(h: Harness): Promise<ShopFixture> {
  await importCatalogue(h.deps, CATALOGUE);
  const rows = await h.deps.db.selectFrom('vendor_products').select(['id', 'catalog_number']).execute();
  const products = Object.fromEntries(rows.map((r) => [r.catalog_number, r.id]));
  const op = await createUser(h.deps.db, { organizationId: h.a.orgId, email: 'operator@labstock.test', firstName: 'Opal', lastName: 'Operator', role: 'member', isOperator: true });
  const token = await createToken(h.deps.db, { userId: op.id, organizationId: h.a.orgId, name: 'operator' });
  return { products, operator: { id: op.id, token: token.token } };
}

// Set by the beforeAll that useShop() registers; ES module bindings are live, so a test file that imports them
// reads the values of the suite that is running (a file may call useShop() in several describe blocks).
export let h: Harness;
export let shop: ShopFixture;

/**
 * Registers the describe block's beforeAll (a harness with the catalogue and an operator; `env` configures it) and
 * afterAll. A beforeAll the block registers after this call runs after it, with `h` and `shop` set.
 */
export function useShop(env: Record<string, string> = {}): void {
  beforeAll(async () => {
    h = await startHarness(env);
    shop = await setupShop(h);
  });
  afterAll(() => h?.close());
}

export const MISSING_ID = '0190a6f2-1111-7222-8333-444455556666';

let seq = 0;
/** Creates a shop order request (through the API) for a product in a lab; returns its id. */
export async function shopRequest(h: Harness, token: string, lab: { id: string; typeId: string }, productId: string, quantity = 2): Promise<string> {
  seq += 1;
  const res = await h.call(token, {
    method: 'POST', url: '/order-requests',
    payload: {
      lab_id: lab.id, type_id: lab.typeId, name: `Shop thing ${seq}`, vendor_name: 'Labstock Shop', catalog_number: `SHOP-${seq}`,
      vendor_product_id: productId, price: { amount: '1000', currency: 'USD' }, quantity,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

export async function checkoutRequests(h: Harness, token: string, labId: string, ids: string[], extra: Record<string, unknown> = {}) {
  return h.call(token, { method: 'POST', url: '/shop/orders', payload: { lab_id: labId, order_request_ids: ids, payment_method: 'CREDIT_CARD', ...extra } });
}

/** Checks out one request and returns the sales order and its only line. */
export async function placeOne(h: Harness, token: string, lab: { id: string; typeId: string }, productId: string, quantity = 2) {
  const requestId = await shopRequest(h, token, lab, productId, quantity);
  const res = await checkoutRequests(h, token, lab.id, [requestId]);
  expect(res.statusCode, res.body).toBe(201);
  const order = res.json();
  return { order, line: order.items[0], requestId };
}

export const eventsOfType = async (h: Harness, shortType: string) =>
  (await h.deps.db.selectFrom('events').selectAll().where('type', '=', `com.labstock.${shortType}`).orderBy('created_at').orderBy('id').execute())
    .map((e) => JSON.parse(e.payload) as { type: string; data: Record<string, any> });

export const SALES_ORDER_FIELDS = [
  'id', 'key', 'app_url', 'payment_method', 'purchase_order_number', 'is_test', 'subtotal', 'shipping', 'handling', 'tax', 'total', 'lab',
  'placed_by', 'placed_at', 'items',
].sort();

/** The contract's Shop order item, field for field. */
export const LINE_FIELDS = [
  'id', 'app_url', 'status', 'estimated_shipment_date', 'estimated_delivery_date', 'sell_price', 'quantity', 'product', 'shipments', 'request',
].sort();
