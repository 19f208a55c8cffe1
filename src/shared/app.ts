import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import { accountRoutes } from '../accounts/routes.js';
import { authenticate } from '../accounts/service.js';
import { eventWebhooks } from '../events/schemas.js';
import { healthRoutes } from '../health/routes.js';
import { inventoryRoutes } from '../inventory/routes.js';
import { labMigrationRoutes } from '../labs/migration-routes.js';
import { labRoutes } from '../labs/routes.js';
import { locationRoutes } from '../locations/routes.js';
import { orderRequestRoutes } from '../order-requests/routes.js';
import { shopRoutes } from '../shop/routes.js';
import { typeRoutes } from '../types/routes.js';
import { webhookRoutes } from '../webhooks/routes.js';
import type { Actor } from './actor.js';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { AppError } from './errors.js';
import { installErrorHandlers } from './http-errors.js';
import { installIdempotency } from './idempotency.js';
import { installInputGuard } from './input-guard.js';
import { createMetrics, type Metrics } from './metrics.js';
import { VERSION } from './version.js';

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
  }
  interface FastifyContextConfig {
    /** Routes open without a token (health, documents, metrics). */
    public?: boolean;
  }
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

// Bodies are validated strictly (no type coercion, unknown fields rejected and named); query strings and path
// parameters arrive as text and are coerced ("2" -> 2, a single status -> [status]).
// Bodies report every problem at once (a missing field and an unknown one are both named); bodies are bounded
// by the body limit and the schemas' maxItems/maxLength, so collecting all errors stays cheap.
function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({ coerceTypes: coerce ? 'array' : false, removeAdditional: false, useDefaults: true, allErrors: !coerce, strict: false });
  addFormats(ajv);
  return ajv;
}

function tokenFrom(headers: Record<string, string | string[] | undefined>): string | null {
  const direct = headers['access-token'];
  if (typeof direct === 'string' && direct.trim()) return direct.trim();
  const auth = headers.authorization;
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) return m[1]!;
  }
  return null;
}

/**
 * JSON logs (pino) with the request id on every line. Tokens never reach them: the default request serializer
 * logs no headers, and the redaction covers any custom logging of headers as well.
 */
export function loggerOptions(config: Pick<Config, 'logLevel'>, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: { paths: ['req.headers["access-token"]', 'req.headers.authorization', 'headers["access-token"]', 'headers.authorization'], censor: '[redacted]' },
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
      (reply as unknown as FastifyReply).header('X-Request-Id', requestId).code(400).type('application/json; charset=utf-8')
        .send({ message: `The request URL is malformed: ${error.message}`, code: 'invalid_url', request_id: requestId });
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // JSON is the only body the API takes; without this, text/plain would parse as a string and fail validation
  // (422) instead of being refused as the wrong media type (415).
  app.removeContentTypeParser('text/plain');

  const bodyAjv = makeAjv(false);
  const textAjv = makeAjv(true);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema));

  app.decorate('deps', { config, db: options.db, metrics: options.metrics ?? createMetrics(options.db) });
  app.decorateRequest('actor', null as unknown as Actor);
  installErrorHandlers(app);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', String(request.id));
  });

  app.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    // Unmatched routes fall through to the 404 handler; the reference page's assets are public like the document.
    if (!url || request.routeOptions.config?.public || url.startsWith('/docs')) return;
    const token = tokenFrom(request.headers);
    if (!token) throw new AppError('unauthorized', 'Send an access token in the Access-Token header');
    const actor = await authenticate(options.db, token);
    if (!actor) throw new AppError('unauthorized', 'The access token is unknown or revoked');
    request.actor = actor;
  });

  if (config.rateLimitPerMinute > 0) {
    await app.register(rateLimit, {
      global: true,
      max: config.rateLimitPerMinute,
      timeWindow: 60_000,
      hook: 'preHandler',
      keyGenerator: (request) => request.actor?.tokenId ?? `ip:${request.ip}`,
      allowList: (request) => !request.actor,
      errorResponseBuilder: (_request, context) => {
        const err = new AppError('rate_limited', `Rate limit of ${context.max} requests a minute exceeded; retry in ${Math.ceil(context.ttl / 1000)} s`, {
          headers: { 'Retry-After': String(Math.ceil(context.ttl / 1000)) },
        });
        return err;
      },
    });
  }

  installInputGuard(app);
  installIdempotency(app, options.db);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Labstock API',
        version: VERSION,
        description: 'Lab inventory and ordering: the public HTTP API. Authenticate with the Access-Token header.',
      },
      servers: [{ url: config.appUrl }],
      components: { securitySchemes: { AccessToken: { type: 'apiKey', in: 'header', name: 'Access-Token' } } },
      security: [{ AccessToken: [] }],
      // Every event kind's CloudEvents envelope; the plugin copies this section into the document as it is.
      webhooks: eventWebhooks(config.eventVendor),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true } });

  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());

  app.deps.metrics.instrument(app);

  await app.register(healthRoutes);
  await app.register(accountRoutes);
  await app.register(labRoutes);
  await app.register(labMigrationRoutes);
  await app.register(typeRoutes);
  await app.register(inventoryRoutes);
  await app.register(locationRoutes);
  await app.register(orderRequestRoutes);
  await app.register(shopRoutes);
  await app.register(webhookRoutes);

  return app;
}
