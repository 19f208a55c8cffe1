import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { Config } from '../shared/config.js';
import { errorResponse } from '../shared/schemas.js';
import { VERSION } from '../shared/version.js';
import { eventWebhooks } from './event-schemas.js';
import { CLAIMED_METHODS } from './idempotency.js';
import { NAMED_SCHEMAS } from './named-schemas.js';
import { finishDocument, type RouteFacts } from './openapi-document.js';

// GET /openapi.json (docs/product.md §2): generated from the schemas that validate and serialize, and shaped for client
// generators: an operationId on every operation (docs/api.md lists them), each resource once under
// components.schemas and $ref'd from the operations, the ways to authenticate as security schemes, and servers
// from APP_URL. The list of operationIds is also what the typed client in client/ is generated from.

/** The name of the sign-in session cookie (docs/product.md §10). */
export const SESSION_COOKIE = 'labstock_session';

const SECURITY_SCHEMES = {
  AccessToken: { type: 'apiKey', in: 'header', name: 'Access-Token', description: 'An API token (lst_…), shown once when created.' },
  BearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description: 'The same token as `Authorization: Bearer <token>`. Send one of the two, not both.',
  },
  SessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description:
      'A browser sign-in session. Unsafe methods (POST, PUT, PATCH, DELETE) also need the X-CSRF-Token header or a matching Origin.',
  },
} as const;

type Security = { [scheme: string]: string[] }[];
const TENANT: Security = [{ AccessToken: [] }, { BearerAuth: [] }, { SessionCookie: [] }];
/** Operator tokens are API tokens only: operators do not sign in to the application (docs/decisions/0004-operators.md). */
const OPERATOR: Security = [{ AccessToken: [] }, { BearerAuth: [] }];

/** What the authentication hook in src/server/app.ts asks of a route, as the document states it. */
function securityOf(route: RouteOptions): Security {
  if (route.config?.public) return [];
  return route.config?.operator ? OPERATOR : TENANT;
}

/** src/server/idempotency.ts honours the header on every POST, PATCH and PUT made with a credential; the document says so on each. */
const IDEMPOTENCY_KEY = {
  type: 'string',
  pattern: '^[\\x21-\\x7e]{1,255}$',
  description:
    'Makes a retry safe: the same key with the same body within 24 hours answers with the first response instead of doing the work again; the same key with another body is 422.',
};

function withIdempotencyKey(headers: unknown): Record<string, unknown> {
  const given = (headers ?? {}) as { properties?: Record<string, unknown> };
  return { ...given, type: 'object', properties: { ...given.properties, 'Idempotency-Key': IDEMPOTENCY_KEY } };
}

/**
 * The errors every route can answer whatever it declares: 400 for a body that is not JSON or disagreeing credential
 * headers (src/server/http-edge.ts), 403 when a credential is not of the route's kind or a session fails its CSRF
 * check (src/server/auth-hook.ts), 429 from the per-token or per-address rate limits.
 */
function withCommonErrors(response: unknown, security: readonly unknown[], hasBody: boolean): Record<string, unknown> {
  const out = { ...(response as Record<string, unknown>) };
  const statuses = [...(security.length > 0 || hasBody ? [400] : []), ...(security.length > 0 ? [403] : []), 429];
  for (const status of statuses) out[status] ??= errorResponse(status);
  return out;
}

/** Browser navigations (the single sign-on redirects) answer only redirects: they are no API operation to generate. */
const onlyRedirects = (response: unknown): boolean => {
  const statuses = Object.keys((response ?? {}) as object).map(Number);
  return statuses.some((s) => s >= 300 && s < 400) && !statuses.some((s) => s < 300);
};

function swaggerOptions(config: Config, routes: ReadonlyMap<string, RouteFacts>): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Labstock API',
        version: VERSION,
        license: { name: 'MIT', identifier: 'MIT' },
        description:
          'Lab inventory and ordering: the public HTTP API. Authenticate with the Access-Token header (or Authorization: Bearer). ' +
          'Lists are JSON arrays paged by `page` and `per_page`, with `Link` (rel first, prev, next, last) and `X-Total-Count` headers. ' +
          `Changes are listed, dated, in the [changelog](${config.appUrl}/changelog); deprecated operations answer with a \`Deprecation\` header (and \`Sunset\` once a date is set).`,
      },
      servers: [{ url: config.appUrl }],
      components: { securitySchemes: SECURITY_SCHEMES },
      security: TENANT,
      // Every event kind's CloudEvents envelope; the plugin copies this section into the document as it is.
      webhooks: eventWebhooks(config.eventVendor),
    },
    // A named schema keeps its $id as its name under components.schemas (the plugin's default is def-<n>).
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transform: ({ schema, url, route }) => {
      const security = schema?.security ?? securityOf(route);
      // Only the document changes: the route's validators were compiled from its own schema already.
      // Routes that opt out (their body holds a password or a link's secret, src/accounts/link-routes.ts) do not
      // advertise the header.
      const method = Array.isArray(route.method) ? route.method[0] : route.method;
      const takesKey =
        CLAIMED_METHODS.has(String(method)) &&
        security.length > 0 &&
        (route.config as { idempotency?: unknown } | undefined)?.idempotency !== false;
      const headers = takesKey ? withIdempotencyKey(schema.headers) : schema?.headers;
      const deprecated = route.config?.deprecation ? { deprecated: true } : {};
      const response = withCommonErrors(schema?.response, security, schema?.body !== undefined);
      const hide = schema?.hide === true || onlyRedirects(schema?.response);
      return { schema: { ...schema, security, response, hide, ...deprecated, ...(headers ? { headers } : {}) }, url };
    },
    transformObject: (document) =>
      'openapiObject' in document
        ? finishDocument(document.openapiObject as Record<string, unknown>, config, routes)
        : document.swaggerObject,
  };
}

/** The named schemas, the document, its reference page at /docs, and GET /openapi.json. */
export async function installOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  for (const schema of NAMED_SCHEMAS) app.addSchema(schema);
  const routes = new Map<string, RouteFacts>();
  app.addHook('onRoute', (route) => {
    const path = route.url.replace(/:(\w+)/g, '{$1}');
    for (const method of [route.method].flat()) routes.set(`${method.toLowerCase()} ${path}`, { deprecation: route.config?.deprecation });
  });
  await app.register(swagger, swaggerOptions(config, routes));
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: { deepLinking: true, validatorUrl: null },
    theme: { title: 'Labstock API reference' },
  });
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
}
