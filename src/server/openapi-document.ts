import type { Config } from '../shared/config.js';
import { eventExample, operationExamples } from './openapi-examples.js';

// The last pass over GET /openapi.json (@fastify/swagger's transformObject, src/server/openapi.ts): what is said
// about the whole document rather than one route. Tags in reading order with the contract's public operations
// first, their examples and the events', the response headers each answer carries, and the way to get a token.
// test/lint/openapi.test.ts holds the result to Redocly's recommended rules.

/** What the document needs to know of a route beyond its schema, keyed `get /inventory-items/{id}`. */
export interface RouteFacts {
  deprecation?: { since: string; sunset?: string };
}

/** The contract's 17 public operations (docs/product.md §1), in the contract's order. */
export const PUBLIC_OPERATIONS = [
  'get /inventory-items',
  'get /inventory-items/{id}',
  'put /inventory-items/{id}',
  'put /inventory-items/{itemId}/instances/{itemInstanceId}',
  'get /labs',
  'get /labs/{id}',
  'get /order-requests',
  'post /order-requests',
  'get /order-requests/{id}',
  'put /order-requests/{id}',
  'get /types',
  'get /webhooks',
  'post /webhooks',
  'get /webhooks/{id}',
  'put /webhooks/{id}',
  'get /healthz',
  'get /user',
] as const;

/** Every tag, in the order /docs shows them: the public resources first. */
const TAGS: { name: string; description: string }[] = [
  { name: 'Inventory items', description: 'What a lab holds, with its instances (lots, expiry, locations) and history.' },
  { name: 'Labs', description: "The labs the token's user sees." },
  { name: 'Order requests', description: 'Purchase requests from any vendor or the shop, and their status.' },
  { name: 'Types', description: 'Inventory types, per lab.' },
  { name: 'Webhooks', description: 'Where events are delivered (org admins only: answers carry the signing key).' },
  { name: 'Users', description: 'The user who owns the token.' },
  { name: 'Health', description: 'For load balancers and monitoring; open without a token.' },
  { name: 'Events', description: 'What webhooks receive: one CloudEvents 1.0 envelope per event, POSTed to the webhook URL.' },
  { name: 'Locations', description: "A lab's storage locations, up to seven levels deep." },
  { name: 'Labels', description: 'Codes of containers, locations and legacy items; label sheets as PDF or ZPL (docs/labels.md).' },
  { name: 'Stocktake', description: 'Counting a location and everything below it, and applying the result (docs/stocktake.md).' },
  {
    name: 'Controlled substances',
    description: 'Items marked controlled, their append-only ledger, its witnesses and reconciliation (docs/controlled-substances.md).',
  },
  { name: 'Safety', description: 'Segregation, control areas and their limits, and the placement checks (docs/safety.md).' },
  { name: 'Shop', description: "The service's catalogue and checkout." },
  { name: 'Shop fulfilment', description: 'For service operators (lso_ tokens) only.' },
  { name: 'Notifications', description: 'Reminders, alerts and the e-mail digest.' },
  { name: 'Tokens', description: 'API tokens: your own, and (org admins) the organization’s.' },
  { name: 'Sign-in', description: "The web application's sign-in, sessions and one-time links." },
  { name: 'Organization administration', description: 'Users, labs and memberships of the organization (org admins).' },
  { name: 'Hazards', description: 'GHS hazard statements of items and types, and what they mean (docs/hazards.md).' },
  {
    name: 'Attachments',
    description: 'Documents of items, instances and types (certificates of analysis, safety data sheets), stored in the database.',
  },
];

const GET_A_TOKEN =
  '## Get a token\n\n' +
  'Sign in to the web application at `/app/`, open **Settings → API tokens** and create a token: it is shown once, so ' +
  'keep it somewhere safe (a signed-in session can also `POST /user/tokens`). The operator of the installation can make ' +
  'one with `labstock admin token create --user <user id> --org <organization id>`. Send it on every request as `Access-Token: lst_…` ' +
  '(or `Authorization: Bearer lst_…`). A token acts as its user in one organization and sees what that user sees; ' +
  'revoke it in the same settings page.';

// biome-ignore lint/suspicious/noExplicitAny: the document is plain JSON as the plugin built it, walked by key.
type Json = Record<string, any>;
const header = (description: string, schema: Json = { type: 'string' }) => ({ description, schema });

const PAGE_HEADERS = {
  Link: header('RFC 8288 links to the `first`, `prev`, `next` and `last` pages (absolute URLs from APP_URL).'),
  'X-Total-Count': header('How many results the whole list holds (a lower bound where `Link` has no `last`).', {
    type: 'string',
    pattern: '^[0-9]+$',
  }),
};
const ETAG = header('`"v<version>"`: send it back in `If-Match` to change the item only if nobody changed it since.');
const RETRY_AFTER = header('Seconds to wait before retrying.', { type: 'string', pattern: '^[0-9]+$' });
const REPLAYED = header('`true` when this is the stored answer to an earlier request with the same `Idempotency-Key`.', {
  type: 'string',
  enum: ['true'],
});

// The operations that answer 201 (202 for a migration) with `Location`: the path of what they made, as their routes
// send it (src/types/routes.ts, src/locations/routes.ts, src/lab-migration/routes.ts, src/inventory/routes.ts,
// src/order-requests/routes.ts, src/shop/routes.ts, src/webhooks/routes.ts); an idempotent replay sends it too.
// test/api/openapi-integrators.test.ts checks each against the header a real request gets.
export const LOCATION_OF: Readonly<Record<string, string>> = {
  createType: '/types/{id}',
  createLocation: '/locations/{id}',
  migrateLabToInstances: '/labs/{lab_id}/migration',
  createInventoryItem: '/inventory-items/{id}',
  createOrderRequest: '/order-requests/{id}',
  reorderInventoryItem: '/order-requests/{id}',
  createSalesOrder: '/shop/orders/{id}',
  createWebhook: '/webhooks/{id}',
};

function deprecationHeaders(d: NonNullable<RouteFacts['deprecation']>): Json {
  return {
    Deprecation: header(`RFC 9745: \`@<unix seconds>\` of the day the operation was deprecated (${d.since}).`),
    ...(d.sunset ? { Sunset: header(`RFC 8594: the HTTP date after which the operation may stop working (${d.sunset}).`) } : {}),
    Link: header('`<APP_URL/changelog>; rel="deprecation"`: the changelog entry that explains it.'),
  };
}

const jsonSchemaRef = (response: Json): string | undefined => {
  const schema = response.content?.['application/json']?.schema;
  return schema?.$ref ?? schema?.items?.$ref;
};

/** The response headers of one operation, as src/shared/pagination.ts, src/inventory/routes.ts and the rest send them. */
function addHeaders(op: Json, facts: RouteFacts | undefined): void {
  const paged = (op.parameters ?? []).some((p: Json) => p.in === 'query' && p.name === 'page');
  const idempotent = (op.parameters ?? []).some((p: Json) => p.in === 'header' && p.name === 'Idempotency-Key');
  for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
    const code = Number(status);
    const ref = jsonSchemaRef(response);
    const headers: Json = { ...response.headers };
    if (paged && code === 200) Object.assign(headers, PAGE_HEADERS);
    if (code < 300 && /\/(InventoryItem|ItemMinimumQuantity|ItemHazards)$/.test(ref ?? '')) headers.ETag = ETAG;
    if (idempotent && code < 300) headers['Idempotent-Replayed'] = REPLAYED;
    const errorBody = ref?.endsWith('/ErrorResponse');
    if (code === 429 || (code === 503 && errorBody) || (code === 409 && idempotent)) headers['Retry-After'] = RETRY_AFTER;
    const made = LOCATION_OF[op.operationId as string];
    if (made && (code === 201 || code === 202)) headers.Location = header(`The path of what was made: \`${made}\`.`);
    if (facts?.deprecation) Object.assign(headers, deprecationHeaders(facts.deprecation));
    if (Object.keys(headers).length > 0) response.headers = headers;
  }
}

function addExamples(op: Json, examples: { request?: unknown; responses: Record<string, unknown> }): void {
  const body = op.requestBody?.content?.['application/json'];
  if (body && examples.request !== undefined) body.example = examples.request;
  for (const [status, example] of Object.entries(examples.responses)) {
    const media = op.responses?.[status]?.content?.['application/json'];
    if (media) media.example = example;
  }
}

/** The finished document: @fastify/swagger's, with the additions above. */
export function finishDocument(doc: Json, config: Config, routes: ReadonlyMap<string, RouteFacts>): Json {
  const examples = operationExamples(config.eventVendor);
  const paths = doc.paths as Record<string, Record<string, Json>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item)) {
      addHeaders(op, routes.get(`${method} ${path}`));
      const given = examples[op.operationId as string];
      if (given) addExamples(op, given);
    }
  }
  for (const [short, item] of Object.entries(doc.webhooks ?? {}) as [string, Json][]) {
    const media = item.post?.requestBody?.content?.['application/json'];
    if (media) media.example = eventExample(config.eventVendor, short as Parameters<typeof eventExample>[1]);
  }

  // Public operations' paths first, so each tag on /docs lists them before the application's own operations.
  const publicPaths = [...new Set(PUBLIC_OPERATIONS.map((key) => key.split(' ')[1]!))];
  const ordered = [...publicPaths.filter((p) => p in paths), ...Object.keys(paths).filter((p) => !publicPaths.includes(p))];
  const used = new Set(
    [...Object.values(paths), ...Object.values((doc.webhooks ?? {}) as Record<string, Json>)].flatMap((item) =>
      Object.values(item).flatMap((op: Json) => (op.tags ?? []) as string[]),
    ),
  );
  const tags = [
    ...TAGS.filter((t) => used.has(t.name)),
    ...[...used].filter((name) => !TAGS.some((t) => t.name === name)).map((name) => ({ name })),
  ];

  return {
    ...doc,
    info: { ...doc.info, description: `${doc.info.description}\n\n${GET_A_TOKEN}` },
    tags,
    paths: Object.fromEntries(ordered.map((p) => [p, paths[p]])),
  };
}
