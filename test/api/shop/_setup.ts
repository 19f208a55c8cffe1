// The shop tests' setup (no tests in here): useShop() gives each describe block a harness with the shared shop
// (test/helpers/shop.ts), whose helpers are re-exported here for this folder.
import { afterAll, beforeAll } from 'vitest';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { type ShopFixture, setupShop } from '../../helpers/shop.js';

export { eventPayloadsOfType as eventsOfType } from '../../helpers/events.js';
export { MISSING_ID } from '../../helpers/shapes.js';
export { CATALOGUE, checkoutRequests, placeOne, type ShopFixture, setupShop, shopRequest } from '../../helpers/shop.js';

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

export const SALES_ORDER_FIELDS = [
  'id',
  'key',
  'app_url',
  'payment_method',
  'purchase_order_number',
  'is_test',
  'subtotal',
  'shipping',
  'handling',
  'tax',
  'total',
  'lab',
  'placed_by',
  'placed_at',
  'items',
].sort();

/** The contract's Shop order item, field for field. */
export const LINE_FIELDS = [
  'id',
  'app_url',
  'status',
  'estimated_shipment_date',
  'estimated_delivery_date',
  'sell_price',
  'quantity',
  'product',
  'shipments',
  'request',
].sort();
