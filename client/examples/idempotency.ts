// client/README.md, "Idempotency" (quoted after the marker; compiled by client/test/readme.test.ts).
import type { LabstockClient } from '@labstock/client';

declare const api: LabstockClient;
declare const pending: { key: string; labId: string; typeId: string };

// ---- README ----
import { unwrap } from '@labstock/client';

// Your own key: one per piece of work, stored with it, so that a retry after a crash or a restart is a replay.
const result = await api.POST('/order-requests', {
  params: { header: { 'Idempotency-Key': pending.key } },
  body: {
    lab_id: pending.labId,
    type_id: pending.typeId,
    name: 'Tris base, 1 kg',
    vendor_name: 'Sigma',
    catalog_number: 'T1503',
    price: { amount: '98.00', currency: 'USD' },
    quantity: 1,
  },
});
if (result.meta.idempotentReplayed) console.log('Already requested: this is the first answer again');
const order = await unwrap(result);
console.log(order.id);
