import { type Static, Type } from 'typebox';
import { Money, ref, Uuid } from '../shared/schemas.js';

// The catalogue's resources: our shape (the contract does not show it), recorded in docs/api.md.

export const ProductUnit = Type.Object(
  { name: Type.String(), symbol: Type.String(), amount: Type.Number({ description: 'how much of the unit one product holds' }) },
  { $id: 'ProductUnit', additionalProperties: false },
);

/** A catalogue entry as GET /shop/products lists it. */
export const VendorProduct = Type.Object(
  {
    id: Uuid,
    item_name: Type.String(),
    catalog_number: Type.String(),
    vendor_name: Type.String(),
    unit: ref(ProductUnit),
    price: ref(Money),
  },
  { $id: 'VendorProduct', title: 'VendorProduct', additionalProperties: false },
);
export type VendorProduct = Static<typeof VendorProduct>;
