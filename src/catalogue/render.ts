import type { ProductRow } from './repository.js';
import type { VendorProduct } from './schemas.js';

/** A product's unit, as the catalogue and the shop's lines show it. */
export const unitOf = (p: ProductRow) => ({ name: p.unit_name, symbol: p.unit_symbol, amount: Number(p.unit_amount) });

export const renderProduct = (p: ProductRow): VendorProduct => ({
  id: p.id,
  item_name: p.item_name,
  catalog_number: p.catalog_number,
  vendor_name: p.vendor_name,
  unit: unitOf(p),
  price: { amount: p.price_amount, currency: p.currency },
});
