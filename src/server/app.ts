import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { accountRoutes } from '../accounts/routes.js';
import { catalogueRoutes } from '../catalogue/routes.js';
import { queueStats } from '../delivery/repository.js';
import { healthRoutes } from '../health/routes.js';
import { inventoryRoutes } from '../inventory/routes.js';
import { inventoryAtLocations } from '../inventory/stored-at.js';
import { labMigrationRoutes } from '../lab-migration/routes.js';
import { labRoutes } from '../labs/routes.js';
import { locationRoutes } from '../locations/routes.js';
import { orderRequestRoutes } from '../order-requests/routes.js';
import type { Actor, OperatorActor } from '../shared/actor.js';
import type { Config } from '../shared/config.js';
import type { Db } from '../shared/db/database.js';
import { AppError } from '../shared/errors.js';
import { createMetrics, type Metrics } from '../shared/metrics.js';
import { shopRoutes } from '../shop/routes.js';
import { typeRoutes } from '../types/routes.js';
import { webhookRoutes } from '../webhooks/routes.js';
import { createAddressLimit } from './address-limit.js';
import { authenticatePrincipal } from './authenticate.js';
import { checkCredentialHeaders, edgeServerOptions, installHttpEdge } from './http-edge.js';
import { installErrorHandlers } from './http-errors.js';
import { claimAwareDb, installIdempotency } from './idempotency.js';
import { installInputGuard } from './input-guard.js';
import { installJsonBody } from './json-body.js';
import { installOpenApi } from './openapi.js';

export interface Deps {
  config: Config;
  db: Db;
  metrics: Metrics;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
  }
  interface FastifyRequest {
    actor: Actor;
    /** Set instead of actor on the routes only operators may call (docs/decisions/0004-operators.md). */
    operator: OperatorActor | null;
  }
  interface FastifyContextConfig {
    /** Routes open without a token (health, documents, metrics). */
    public?: boolean;
    /** Shop fulfilment: only operator tokens authenticate here, and they authenticate nowhere else. */
    operator?: boolean;
  }
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

// Bodies are validated strictly (no type coercion, unknown fields rejected and named); query strings and path
// parameters arrive as text and are coerced ("2" -> 2, a single status -> [status]).
// Bodies report every problem at once (a missing field and an unknown one are both named); bodies are bounded
// by the body limit and the schemas' maxItems/maxLength, so collecting all errors stays cheap.
function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes: coerce ? 'array' : false,
    removeAdditional: false,
    useDefaults: true,
    allErrors: !coerce,
    strict: false,
  });
  addFormats(ajv);
  return ajv;
}

function tokenFrom(headers: Record<string, string | string[] | undefined>, rawHeaders: string[]): string | null {
  const direct = typeof headers['access-token'] === 'string' && headers['access-token'].trim() ? headers['access-token'].trim() : undefined;
  const auth = headers.authorization;
  const bearer = typeof auth === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1] : undefined;
  // Two credentials are refused (400), never resolved by letting one of them win.
  checkCredentialHeaders(rawHeaders, direct, bearer);
  return direct ?? bearer ?? null;
}

/**
 * JSON logs (pino) with the request id on every line. Tokens never reach them: the default request serializer
 * logs no headers, and the redaction covers any custom logging of headers as well.
 */
export function loggerOptions(config: Pick<Config, 'logLevel'>, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: {
      paths: ['req.headers["access-token"]', 'req.headers.authorization', 'headers["access-token"]', 'headers.authorization'],
      censor: '[redacted]',
    },
    ...(stream ? { stream } : {}),
  };
}

export interface BuildOptions {
  config: Config;
  db: Db;
  logger?: FastifyServerOptions['logger'];
  metrics?: Metrics;
}

export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger ?? false,
    // Header, request and keep-alive timeouts and the error body of requests Node refuses (src/server/http-edge.ts).
    ...edgeServerOptions(config),
    bodyLimit: config.bodyLimitBytes,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w.-]{1,128}$/.test(incoming) ? incoming : crypto.randomUUID();
    },
    requestIdHeader: false,
    // Long ids reach the UUID check (422) instead of the router's own 414.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
    // Errors the router raises before any hook runs (a malformed percent-escape) get our error body too.
    frameworkErrors: (error, request, reply) => {
      const requestId = String(request.id);
      (reply as unknown as FastifyReply)
        .header('X-Request-Id', requestId)
        .code(400)
        .type('application/json; charset=utf-8')
        .send({ message: `The request URL is malformed: ${error.message}`, code: 'invalid_url', request_id: requestId });
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // JSON is the only body the API takes; without this, text/plain would parse as a string and fail validation
  // (422) instead of being refused as the wrong media type (415).
  app.removeContentTypeParser('text/plain');
  // Our JSON parser: UTF-8 only, bounded nesting, no Content-Encoding, raw bytes kept (src/server/json-body.ts).
  installJsonBody(app);

  const bodyAjv = makeAjv(false);
  const textAjv = makeAjv(true);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema));

  // Services get a db whose transactions mark the request's Idempotency-Key claim as they commit.
  app.decorate('deps', { config, db: claimAwareDb(options.db), metrics: options.metrics ?? createMetrics(() => queueStats(options.db)) });
  app.decorateRequest('actor', null as unknown as Actor);
  app.decorateRequest('operator', null);
  installErrorHandlers(app);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', String(request.id));
  });
  installHttpEdge(app, config);

  // Per-address budget of unauthenticated requests, taken before any token is hashed (src/server/address-limit.ts).
  const addressLimit = createAddressLimit(config.rateLimitPerAddressPerMinute);
  if (addressLimit) app.addHook('onRequest', async (request) => addressLimit.take(request.ip));

  app.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    // Unmatched routes fall through to the 404 handler; the reference page's assets are public like the document.
    if (!url || request.routeOptions.config?.public || url.startsWith('/docs')) return;
    const token = tokenFrom(request.headers, request.raw.rawHeaders);
    if (!token) throw new AppError('unauthorized', 'Send an access token in the Access-Token header');
    const principal = await authenticatePrincipal(options.db, token, String(request.id));
    if (!principal) throw new AppError('unauthorized', 'The access token is unknown or revoked');
    // Operators and tenant users never share a route: decided here, before any handler can read data.
    const operatorRoute = request.routeOptions.config?.operator === true;
    if (principal.kind === 'operator') {
      if (!operatorRoute)
        throw new AppError('forbidden', 'An operator token acts only on shop fulfilment (/shop/order-items, /shop/shipments)');
      request.operator = principal.operator;
    } else {
      if (operatorRoute) throw new AppError('forbidden', 'Shop fulfilment is done by service operators');
      request.actor = principal.actor;
    }
  });
  // Reached only when the hook above did not throw: a request that authenticated does not spend the address budget.
  if (addressLimit) {
    app.addHook('onRequest', async (request) => {
      const url = request.routeOptions.url;
      if (url && !request.routeOptions.config?.public && !url.startsWith('/docs')) addressLimit.giveBack(request.ip);
    });
  }

  if (config.rateLimitPerMinute > 0) {
    await app.register(rateLimit, {
      global: true,
      max: config.rateLimitPerMinute,
      timeWindow: 60_000,
      hook: 'preHandler',
      // Operator tokens count per token like tenant tokens (request.operator is set instead of request.actor).
      keyGenerator: (request) => request.actor?.tokenId ?? request.operator?.tokenId ?? `ip:${request.ip}`,
      allowList: (request) => !request.actor && !request.operator,
      errorResponseBuilder: (_request, context) => {
        const err = new AppError(
          'rate_limited',
          `Rate limit of ${context.max} requests a minute exceeded; retry in ${Math.ceil(context.ttl / 1000)} s`,
          {
            headers: { 'Retry-After': String(Math.ceil(context.ttl / 1000)) },
          },
        );
        return err;
      },
    });
  }

  installInputGuard(app);
  installIdempotency(app, options.db);

  // Before the routes: it registers the named schemas their $refs point at, and collects the routes as they come.
  await installOpenApi(app, config);

  app.deps.metrics.instrument(app);

  await app.register(healthRoutes);
  await app.register(accountRoutes);
  await app.register(labRoutes);
  await app.register(labMigrationRoutes);
  await app.register(typeRoutes);
  await app.register(inventoryRoutes);
  await app.register(locationRoutes, { stored: inventoryAtLocations });
  await app.register(orderRequestRoutes);
  await app.register(catalogueRoutes);
  await app.register(shopRoutes);
  await app.register(webhookRoutes);

  return app;
}
