// A small program using the client as an application would, compiled by client/test/generated.test.ts with
// `tsc --noEmit` against the built package. Each @ts-expect-error is a misuse the generated types must refuse: if
// the types degraded to `any`, that line would compile and tsc would fail on the unused directive.
import {
  createLabstockClient,
  eventKind,
  type InventoryItem,
  isLabstockError,
  LabstockError,
  NotFoundError,
  type OrderRequest,
  type paths,
  unwrap,
  verifyWebhook,
} from '@labstock/client';

const api = createLabstockClient({ baseUrl: 'https://labstock.example.org', token: 'lst_example' });

export async function lowStock(labId: string): Promise<InventoryItem[]> {
  const low: InventoryItem[] = [];
  for await (const item of api.paginate('/inventory-items', { params: { query: { lab_id: labId, per_page: 100 } } })) {
    if (Number(item.quantity) < 1) low.push(item);
  }
  // @ts-expect-error page is an integer
  api.paginate('/inventory-items', { params: { query: { page: 'two' } } });
  // @ts-expect-error a list that needs a path parameter needs it here too
  api.paginate('/webhooks/{id}/deliveries');
  return low;
}

export async function getItem(id: string): Promise<string> {
  const item = await unwrap(api.GET('/inventory-items/{id}', { params: { path: { id } } }));
  const quantity: string = item.quantity;
  // @ts-expect-error quantities are decimal strings
  const asNumber: number = item.quantity;
  // @ts-expect-error the path parameter is required
  await api.GET('/inventory-items/{id}');
  // @ts-expect-error no such path
  await api.GET('/inventory-item/{id}');
  return `${quantity} ${asNumber} ${item.lab.organization.name} ${item.instances[0]?.location?.pathNames.join(' / ')}`;
}

export async function order(labId: string, typeId: string, key: string): Promise<OrderRequest> {
  const body: paths['/order-requests']['post']['requestBody']['content']['application/json'] = {
    lab_id: labId,
    type_id: typeId,
    name: 'Anti-GFP',
    vendor_name: 'Abcam',
    catalog_number: 'ab290',
    price: { amount: '415.00', currency: 'USD' },
    quantity: 2,
  };
  // @ts-expect-error quantity is an integer in the create body
  await api.POST('/order-requests', { body: { ...body, quantity: '2' } });
  try {
    return await unwrap(api.POST('/order-requests', { params: { header: { 'Idempotency-Key': key } }, body }));
  } catch (err) {
    if (err instanceof LabstockError && err.status === 422)
      throw new Error(`${err.code}: ${err.errors.map((e) => e.field).join(', ')} (${err.request_id})`);
    throw err;
  }
}

export async function approve(id: string): Promise<void> {
  await unwrap(api.PUT('/order-requests/{id}', { params: { path: { id } }, body: { status: 'APPROVED' } }));
  // @ts-expect-error not a status
  await api.PUT('/order-requests/{id}', { params: { path: { id } }, body: { status: 'SHIPPED' } });
}

export function onDelivery(body: string, headers: Record<string, string>, secret: string): string {
  const event = verifyWebhook(body, headers, secret);
  switch (event.type) {
    case 'com.labstock.inventory-item.updated':
      return event.data.inventory_item.instances.map((i) => i.quantity).join(',');
    case 'com.labstock.order-request.ordered':
      return event.data.order_request.events.map((e) => e.type).join(',');
    case 'com.labstock.webhook.ping':
      return event.data.webhook.url;
    default:
      return eventKind(event);
  }
}

export function onAcmeDelivery(body: string, headers: Record<string, string>, secret: string): string | undefined {
  const event = verifyWebhook<'acme'>(body, headers, secret);
  // @ts-expect-error this service's EVENT_VENDOR is acme
  if (event.type === 'com.labstock.type.created') return undefined;
  return event.type === 'com.acme.type.created' ? event.data.type.lab.name : undefined;
}

export async function sdk(id: string): Promise<string> {
  const patient = api.withOptions({ timeout: 60_000, maxRetries: 5 });
  const page = await patient.GET('/labs', { params: { query: { per_page: 10 } }, timeout: 5_000, maxRetries: 0 });
  const total: number | undefined = page.meta.totalCount;
  // @ts-expect-error timeout is a number of milliseconds
  await api.GET('/labs', { timeout: '5s' });
  // @ts-expect-error the meta's ETag is a string
  const etag: number = (await api.GET('/inventory-items/{id}', { params: { path: { id } } })).meta.etag;
  try {
    await unwrap(api.GET('/inventory-items/{id}', { params: { path: { id } } }));
  } catch (err) {
    if (err instanceof NotFoundError) return err.code;
    if (isLabstockError(err, 'precondition_failed')) return err.headers.get('etag') ?? '';
  }
  return `${total} ${etag}`;
}
