import type { FastifyError, FastifyInstance } from 'fastify';
import { isDatabaseUnavailable, isTransientConflict, isUniqueViolation } from '../shared/db/database.js';
import { AppError, ERROR_STATUS, type ErrorCode, type FieldError } from '../shared/errors.js';
import { EMAIL_PATTERN, EMAIL_RULE, WEB_PAGE_PATTERN, WEB_PAGE_RULE } from '../shared/schemas.js';

// The one place where errors become HTTP responses. Every error body has a top-level `message` (what existing
// clients read), a stable `code` and the `request_id` that also appears in the logs.

interface ValidationIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

function fieldPath(context: string | undefined, issue: ValidationIssue): string {
  const segments = issue.instancePath
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (issue.keyword === 'required') segments.push(String(issue.params.missingProperty));
  if (issue.keyword === 'additionalProperties') segments.push(String(issue.params.additionalProperty));
  const path = segments.reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc ? `${acc}.${s}` : s), '');
  return path || (context === 'body' ? 'body' : (context ?? 'request'));
}

function issueMessage(issue: ValidationIssue): string {
  switch (issue.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known field';
    case 'format':
      return `must be a valid ${String(issue.params.format)}`;
    case 'pattern':
      if (issue.params.pattern === EMAIL_PATTERN) return EMAIL_RULE;
      return issue.params.pattern === WEB_PAGE_PATTERN ? WEB_PAGE_RULE : 'has an invalid format';
    case 'const':
    case 'enum':
    case 'anyOf':
      return `must be one of the allowed values${issue.params.allowedValues ? `: ${(issue.params.allowedValues as unknown[]).join(', ')}` : ''}`;
    default:
      return issue.message ?? 'is invalid';
  }
}

export function toFieldErrors(validation: ValidationIssue[], context?: string): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  // anyOf emits one issue per branch plus a summary; report each field once, most specific message first.
  for (const issue of validation) {
    const field = fieldPath(context, issue);
    if (seen.has(field)) continue;
    seen.add(field);
    out.push({ field, message: issueMessage(issue) });
  }
  return out;
}

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
};

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const requestId = String(request.id);
    let status: number;
    let body: Record<string, unknown>;

    if (error instanceof AppError) {
      status = error.status;
      body = { message: error.message, code: error.code, request_id: requestId, ...(error.details.extra ?? {}) };
      if (error.details.errors) body.errors = error.details.errors;
      for (const [k, v] of Object.entries(error.details.headers ?? {})) reply.header(k, v);
    } else if (isTransientConflict(error)) {
      request.log.warn(
        { err: { message: error.message, code: (error as { code?: unknown }).code } },
        'transaction given up for another; nothing changed',
      );
      status = 503;
      reply.header('Retry-After', '1');
      body = {
        message: 'Another change to the same records came at the same moment; nothing was changed. Retry in a moment',
        code: 'service_unavailable',
        request_id: requestId,
      };
    } else if (isDatabaseUnavailable(error)) {
      // The database went away or timed out (src/shared/db/database.ts): the client may retry, the process lives on.
      // Only the message and code are logged: a pool error can carry the client and its connection settings.
      request.log.warn({ err: { message: error.message, code: (error as { code?: unknown }).code } }, 'database unavailable');
      status = 503;
      reply.header('Retry-After', '1');
      body = { message: 'The database is unavailable; retry in a moment', code: 'service_unavailable', request_id: requestId };
    } else if (isUniqueViolation(error)) {
      // Two requests created the same thing at once: each checked first and found nothing, and the database's unique
      // index refused the later one (on PostgreSQL the checks run side by side). That is the 409 a later duplicate
      // gets, whichever route it came through. The driver's detail names the clashing values: only the index is logged.
      request.log.info({ constraint: (error as { constraint?: unknown }).constraint }, 'unique violation answered as conflict');
      status = 409;
      body = {
        message: 'This conflicts with something another request created at the same moment',
        code: 'conflict',
        request_id: requestId,
      };
    } else if ((error as FastifyError).validation) {
      const fe = error as FastifyError;
      const errors = toFieldErrors(fe.validation as unknown as ValidationIssue[], fe.validationContext);
      status = 422;
      body = {
        message: errors.map((e) => `${e.field}: ${e.message}`).join('; '),
        code: 'validation_failed',
        request_id: requestId,
        errors,
      };
    } else {
      const fe = error as FastifyError;
      const mapped = fe.code ? FASTIFY_CODES[fe.code] : undefined;
      if (mapped) {
        status = ERROR_STATUS[mapped];
        const message =
          mapped === 'invalid_json'
            ? 'The request body is not valid JSON'
            : mapped === 'unsupported_media_type'
              ? 'Send the request body as application/json'
              : mapped === 'payload_too_large'
                ? 'The request body is too large'
                : fe.message;
        body = { message, code: mapped, request_id: requestId };
      } else if (fe.statusCode === 429) {
        status = 429;
        body = { message: fe.message || 'Too many requests', code: 'rate_limited', request_id: requestId };
      } else if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
        status = fe.statusCode;
        const code: ErrorCode =
          status === 400
            ? 'invalid_json'
            : status === 404
              ? 'not_found'
              : status === 413
                ? 'payload_too_large'
                : status === 415
                  ? 'unsupported_media_type'
                  : 'validation_failed';
        body = { message: fe.message, code, request_id: requestId };
      } else {
        request.log.error({ err: error }, 'unhandled error');
        status = 500;
        body = { message: 'Internal server error', code: 'internal_error', request_id: requestId };
      }
    }
    return reply.code(status).type('application/json; charset=utf-8').send(body);
  });

  // A path that exists under other methods is 405 with the methods it has (RFC 9110 §15.5.6), not 404: the client
  // got the address right and the method wrong. OPTIONS is not probed: CORS answers it on every path when enabled.
  // A route of the request's own method that answers "not found" itself (a missing file under /app/, served by
  // the static files' wildcard route) is a 404, not a wrong method.
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = ROUTE_METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
    if (allowed.length > 0 && !allowed.includes(request.method as (typeof ROUTE_METHODS)[number])) {
      throw new AppError('method_not_allowed', `${request.method} is not allowed on ${path}; it allows ${allowed.join(', ')}`, {
        headers: { Allow: allowed.join(', ') },
      });
    }
    return reply.code(404).send({ message: `No route for ${request.method} ${path}`, code: 'not_found', request_id: String(request.id) });
  });
}

const ROUTE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
