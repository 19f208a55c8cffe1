import { type Static, Type } from 'typebox';
import { getItem } from '../inventory/items.js';
import type { Actor } from '../shared/actor.js';
import type { ServiceDeps } from '../shared/deps.js';
import { type FieldError, validation } from '../shared/errors.js';
import { DateString } from '../shared/schemas.js';
import { lastPriceOf } from './repository.js';
import type { OrderRequest } from './schemas.js';
import { PriceBody } from './schemas.js';
import { createOrder } from './service.js';

// "Reorder" (docs/product.md §12): an order request made from an item, with the item's name, vendor, catalog number,
// type and vendor product filled in, and the price the lab last asked for the same product unless one is given.
// It is createOrder with those fields, so it answers, checks and announces (order-request.created) exactly as
// POST /order-requests does.

export const ReorderBody = Type.Object(
  {
    quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000, default: 1, description: 'Defaults to 1.' })),
    price: Type.Optional(PriceBody),
    required_before: Type.Optional(DateString),
    notes: Type.Optional(Type.String({ maxLength: 10_000 })),
  },
  { additionalProperties: false },
);
export type ReorderBody = Static<typeof ReorderBody>;

export async function reorderItem(deps: ServiceDeps, actor: Actor, itemId: string, body: ReorderBody): Promise<OrderRequest> {
  // getItem applies the item's visibility (another tenant's item is 404) before anything of it is read.
  const { item } = await getItem(deps, actor, itemId);
  const errors: FieldError[] = [];
  if (!item.vendor?.trim())
    errors.push({ field: 'item.vendor', message: 'the item has no vendor to order from; create the request with POST /order-requests' });
  if (!item.catalog_number?.trim())
    errors.push({ field: 'item.catalog_number', message: 'the item has no catalog number; create the request with POST /order-requests' });
  if (!item.type) errors.push({ field: 'item.type', message: 'the item has no type; create the request with POST /order-requests' });
  if (errors.length > 0) throw validation(errors);
  const vendor = item.vendor!.trim();
  const catalogNumber = item.catalog_number!.trim();
  let price = body.price;
  if (!price) {
    const last = await lastPriceOf(deps.db, item.lab.id, vendor, catalogNumber);
    if (!last)
      throw validation([{ field: 'price', message: 'the lab has no earlier request for this product to take a price from; send price' }]);
    price = { amount: last.unit_price, currency: last.currency };
  }
  return createOrder(
    deps,
    actor,
    {
      lab_id: item.lab.id,
      type_id: item.type!.id,
      name: item.name,
      vendor_product_id: item.vendor_product_id ?? undefined,
      vendor_name: vendor,
      catalog_number: catalogNumber,
      price,
      quantity: body.quantity ?? 1,
      required_before: body.required_before,
      notes: body.notes,
    },
    { unitSize: item.unit_size },
  );
}
