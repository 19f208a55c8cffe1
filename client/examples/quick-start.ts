// The README's quick start (client/README.md quotes what follows the marker; client/test/readme.test.ts checks
// that it does and compiles this file).
declare const labId: string;
declare const typeId: string;

// ---- README ----
import { createLabstockClient, unwrap } from '@labstock/client';

const api = createLabstockClient({ baseUrl: 'https://labstock.example.org', token: process.env.LABSTOCK_TOKEN });

// Every list, page after page.
for await (const item of api.paginate('/inventory-items', { params: { query: { lab_id: labId } } })) {
  console.log(item.name, item.quantity);
}

// A create: sent with an Idempotency-Key, so a retry after a timeout never orders twice.
const order = await unwrap(
  api.POST('/order-requests', {
    body: {
      lab_id: labId,
      type_id: typeId,
      name: 'Anti-GFP antibody',
      vendor_name: 'Abcam',
      catalog_number: 'ab290',
      price: { amount: '415.00', currency: 'USD' },
      quantity: 2,
    },
  }),
);
console.log(`Requested ${order.item_name}: ${order.status}`);
