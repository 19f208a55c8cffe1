// client/README.md, "Response headers, ETag and If-Match" (quoted after the marker; compiled by
// client/test/readme.test.ts).
import type { LabstockClient } from '@labstock/client';

declare const api: LabstockClient;
declare const id: string;

// ---- README ----
import { isLabstockError, unwrap, unwrapWithMeta } from '@labstock/client';

const { data: item, meta } = await unwrapWithMeta(api.GET('/inventory-items/{id}', { params: { path: { id } } }));
try {
  await unwrap(
    api.PATCH('/inventory-items/{id}', {
      params: { path: { id }, header: { 'if-match': meta.etag! } },
      body: { name: `${item.name} (opened)` },
    }),
  );
} catch (err) {
  if (!isLabstockError(err, 'precondition_failed')) throw err;
  console.log('Someone changed the item meanwhile: read it again and redo the change');
}
