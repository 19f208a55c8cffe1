// client/README.md, "Paging" (quoted after the marker; compiled by client/test/readme.test.ts).
import type { LabstockClient } from '@labstock/client';

declare const api: LabstockClient;
declare const labId: string;
declare const webhookId: string;
// ---- README ----
for await (const item of api.paginate('/inventory-items', { params: { query: { lab_id: labId, per_page: 100 } } })) {
  if (Number(item.quantity) === 0) console.log(`${item.name} is used up`);
}
// Lists under a resource take its id:
for await (const delivery of api.paginate('/webhooks/{id}/deliveries', { params: { path: { id: webhookId } } })) {
  console.log(delivery.status, delivery.attempts);
}

// One page at a time: the total and the links are on the result.
const page = await api.GET('/order-requests', { params: { query: { lab_id: labId, page: 2, per_page: 50 } } });
console.log(`${page.data?.length} of ${page.meta.totalCount}; next: ${page.meta.links.next ?? 'none'}`);
