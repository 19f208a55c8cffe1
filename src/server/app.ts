import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { authRoutes } from '../accounts/auth-routes.js';
import { linkRoutes } from '../accounts/link-routes.js';
import { accountRoutes } from '../accounts/routes.js';
import { ssoLinkRoutes } from '../accounts/sso-link-routes.js';
import { ssoRoutes } from '../accounts/sso-routes.js';
import { tokenRoutes } from '../accounts/token-routes.js';
import { queueStats } from '../delivery/repository.js';
import { healthRoutes } from '../health/routes.js';
import type { Actor, OperatorActor } from '../shared/actor.js';
import type { Config } from '../shared/config.js';
import type { Db } from '../shared/db/database.js';
import type { SessionsTable } from '../shared/db/schema-accounts-auth.js';
import { AppError } from '../shared/errors.js';
import { createMailer, type Mailer } from '../shared/mail.js';
import { createMetrics, type Metrics } from '../shared/metrics.js';
import { addressKey, createAddressLimit } from './address-limit.js';
import { corsOptions, installAuthentication, isSecure } from './auth-hook.js';
import { buildSerializer, compileValidator } from './compiled-schemas.js';
import { type Deprecation, installDeprecation } from './deprecation.js';
import { registerDomainRoutes } from './domain-routes.js';
import { edgeServerOptions, installHttpEdge } from './http-edge.js';
import { installErrorHandlers } from './http-errors.js';
import { claimAwareDb, installIdempotency } from './idempotency.js';
import { installInputGuard } from './input-guard.js';
import { installJsonBody } from './json-body.js';
import { installOpenApi } from './openapi.js';
import { installSecurityHeaders } from './security-headers.js';
import { installWebApp } from './web-app.js';

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
    /** The session, when the request authenticated with the session cookie rather than a token (docs/auth.md). */
    session: SessionsTable | null;
  }
  interface FastifyContextConfig {
    /** Routes open without a token (health, documents, metrics). */
    public?: boolean;
    /** Shop fulfilment: only operator tokens authenticate here, and they authenticate nowhere else. */
    operator?: boolean;
    /** Routes about the session itself (/auth/session, sign-out): only the cookie authenticates, tokens are ignored. */
    session?: boolean;
    /** GET /auth/session: without a live session cookie the handler answers "signed out" instead of a 401. */
    sessionCheck?: boolean;
    /**
     * false: Idempotency-Key is not honoured (the body holds a password or a link's secret). 'without-answer': the key
     * is claimed so a retry does not do the work again, but the answer (a secret shown once) is not stored.
     */
    idempotency?: boolean | 'without-answer';
    /** The web application's files (src/server/web-app.ts): open, and not counted against the per-address budget. */
    webApp?: boolean;
    /** A deprecated operation: Deprecation, Sunset and Link headers on its answers (src/server/deprecation.ts). */
    deprecation?: Deprecation;
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

/** The secret of a one-time link in a path (/auth/invitations/<secret>, the web app's /app/password-reset/<secret>). */
const LINK_SECRET_IN_PATH = /(\/(?:invitations|password-reset)\/)[^/?#]+/g;
/** The URL as logged: without a one-time link's secret, and without the SSO callback's query (code and state). */
export const redactUrl = (url: string): string =>
  (url.startsWith('/auth/sso/callback') ? url.replace(/\?.*$/, '?[redacted]') : url).replace(LINK_SECRET_IN_PATH, '$1[redacted]');

/**
 * JSON logs (pino) with the request id on every line. Tokens, cookies and CSRF tokens never reach them: the request serializer
 * logs no headers, and the redaction covers any custom logging of headers as well. The serializer is Fastify's own but for the
 * URL, from which the secret of a one-time link is cut (docs/auth.md).
 */
export function loggerOptions(config: Pick<Config, 'logLevel'>, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    redact: {
      paths: [
        'req.headers["access-token"]',
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-csrf-token"]',
        'headers["access-token"]',
        'headers.authorization',
        'headers.cookie',
        'headers["x-csrf-token"]',
        'res.headers["set-cookie"]',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
    ...(stream ? { stream } : {}),
  };
}

export interface BuildOptions {
  config: Config;
  db: Db;
  logger?: FastifyServerOptions['logger'];
  metrics?: Metrics;
  /** The mail transport; by default one built from SMTP_URL (src/shared/mail.ts), closed with the app. */
  mailer?: Mailer;
  /** How long a cached credential is trusted without a lookup (src/accounts/auth-cache.ts TTL_MS); tests lengthen it. */
  authCacheTtlMs?: number;
}

export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger ?? false,
    // Header, request and keep-alive timeouts and the error body of requests Node refuses (src/server/http-edge.ts).
    ...edgeServerOptions(config),
    bodyLimit: config.bodyLimitBytes,
    // TRUST_PROXY: request.ip, request.protocol and request.host follow X-Forwarded-* from trusted proxies only.
    // A hop count becomes the function Fastify would build from it (its types take no number).
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (
            (hops: number) => (_addr: string, hop: number) =>
              hop < hops
          )(config.trustProxy)
        : config.trustProxy,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w.-]{1,128}$/.test(incoming) ? incoming : crypto.randomUUID();
    },
    requestIdHeader: false,
    schemaController: { compilersFactory: { buildSerializer } },
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
  // First, so that every answer, errors of later hooks included, carries them (src/server/security-headers.ts).
  await installSecurityHeaders(app);

  // JSON is the only body the API takes; without this, text/plain would parse as a string and fail validation
  // (422) instead of being refused as the wrong media type (415).
  app.removeContentTypeParser('text/plain');
  // Our JSON parser: UTF-8 only, bounded nesting, no Content-Encoding, raw bytes kept (src/server/json-body.ts).
  installJsonBody(app);

  const bodyAjv = makeAjv(false);
  const textAjv = makeAjv(true);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    httpPart === 'body' ? compileValidator(bodyAjv, 'body', schema) : compileValidator(textAjv, 'text', schema),
  );

  // Services get a db whose transactions mark the request's Idempotency-Key claim as they commit.
  app.decorate('deps', { config, db: claimAwareDb(options.db), metrics: options.metrics ?? createMetrics(() => queueStats(options.db)) });
  app.decorateRequest('actor', null as unknown as Actor);
  app.decorateRequest('operator', null);
  app.decorateRequest('session', null);
  installErrorHandlers(app);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', String(request.id));
  });
  installHttpEdge(app, config);

  // Cookies are parsed for the session (src/server/auth-hook.ts); CORS answers only the configured origins, and
  // without credentials, so the session cookie is never usable from them.
  await app.register(cookie);
  if (config.corsOrigins.length > 0) await app.register(cors, corsOptions(config.corsOrigins));
  installAuthentication(app, options.db, config, createAddressLimit(config.rateLimitPerAddressPerMinute), options.authCacheTtlMs);

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
  installDeprecation(app, config);

  app.deps.metrics.instrument(app);

  await app.register(healthRoutes);
  await app.register(accountRoutes, { addressKey: (request) => addressKey(request.ip) });
  await app.register(authRoutes, { addressKey: (request) => addressKey(request.ip), isSecure: (request) => isSecure(config, request) });
  await app.register(ssoRoutes, { isSecure: (request) => isSecure(config, request) });
  await app.register(ssoLinkRoutes, { isSecure: (request) => isSecure(config, request) });
  await app.register(tokenRoutes);
  const mailer = options.mailer ?? createMailer(config.mail, app.log);
  if (!options.mailer) app.addHook('onClose', async () => mailer.close());
  await app.register(linkRoutes, {
    mailer,
    addressKey: (request) => addressKey(request.ip),
    isSecure: (request) => isSecure(config, request),
  });
  await registerDomainRoutes(app);
  await installWebApp(app);

  return app;
}
