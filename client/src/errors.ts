import { parseRetryAfter, type ResponseMeta, responseMeta } from './meta.js';

/**
 * The API's error body, as docs/errors.md describes it: `message`, a stable `code`, the `request_id`, per-field
 * `errors` on a 422 and `allowed` on a refused status change. Written out here rather than taken from the
 * generated schema, whose name for it is not part of the contract and may change.
 */
export interface ErrorBody {
  message: string;
  code: string;
  request_id: string;
  errors?: { field: string; message: string }[];
  allowed?: string[];
  [extra: string]: unknown;
}

// Symbol.for, not a module-level symbol: two copies of the package in one application (a bundle and a
// dependency's own) still recognise each other's errors in isLabstockError.
const BRAND = Symbol.for('@labstock/client.error');

/**
 * A response that was not a success, as a thrown error: the HTTP status, the body's `code`, `message` and
 * `request_id` (quote it when reporting a problem; the server logs it), and the response's headers. A body that
 * is not the API's error shape (a proxy's page, say) still gives a LabstockError, with code `http_<status>`.
 * `errorFor` picks the subclass by status: BadRequestError, AuthenticationError, PermissionDeniedError,
 * NotFoundError, ConflictError, PreconditionFailedError, UnprocessableEntityError, RateLimitedError, ServerError
 * (and ServiceUnavailableError, a ServerError).
 */
export class LabstockError extends Error {
  override readonly name: string = 'LabstockError';
  /** HTTP status, e.g. 404 or 422. */
  readonly status: number;
  /** Stable, snake_case, e.g. `not_found`, `validation_failed`, `invalid_transition`. */
  readonly code: string;
  /** The id the server gave the request (also its X-Request-Id header). */
  readonly request_id: string;
  /** For 422: each field that failed and why. */
  readonly errors: { field: string; message: string }[];
  /** For 409 `invalid_transition`: the statuses the resource may move to. */
  readonly allowed: string[] | undefined;
  /** Seconds to wait before retrying (429, 503, a 409 for a request still in progress), from Retry-After. */
  readonly retryAfter: number | undefined;
  /** The parsed error body (undefined when the body was not the API's error shape). */
  readonly body: ErrorBody | undefined;
  /** The response's headers. */
  readonly headers: Headers;
  /** The status, headers, request id, ETag, … of the response, as every successful call has them. */
  readonly meta: ResponseMeta;
  readonly response: Response;

  constructor(response: Response, body: unknown) {
    const error = isErrorBody(body) ? body : undefined;
    super(
      error?.message ?? (typeof body === 'string' && body ? body.slice(0, 200) : `HTTP ${response.status} ${response.statusText}`.trim()),
    );
    Object.defineProperty(this, BRAND, { value: true });
    this.status = response.status;
    this.code = error?.code ?? `http_${response.status}`;
    this.request_id = error?.request_id ?? response.headers.get('x-request-id') ?? '';
    this.errors = error?.errors ?? [];
    this.allowed = error?.allowed;
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
    this.retryAfter = retryAfter === undefined ? undefined : retryAfter / 1000;
    this.body = error;
    this.headers = response.headers;
    this.meta = responseMeta(response);
    this.response = response;
  }
}

/** 400: the request could not be read (invalid JSON, a malformed URL or header). */
export class BadRequestError extends LabstockError {
  override readonly name: string = 'BadRequestError';
}
/** 401: no token, or an unknown or revoked one. */
export class AuthenticationError extends LabstockError {
  override readonly name: string = 'AuthenticationError';
}
/** 403: the token's role does not allow it (or a session's CSRF check failed). */
export class PermissionDeniedError extends LabstockError {
  override readonly name: string = 'PermissionDeniedError';
}
/** 404: no such resource, or one this token may not see (the API does not tell the two apart). */
export class NotFoundError extends LabstockError {
  override readonly name: string = 'NotFoundError';
}
/** 409: a state conflict: `invalid_transition` (see `allowed`), `conflict`, `idempotency_key_completed`, … */
export class ConflictError extends LabstockError {
  override readonly name: string = 'ConflictError';
}
/** 412: `If-Match` did not match the current ETag: read the resource again and redo the change. */
export class PreconditionFailedError extends LabstockError {
  override readonly name: string = 'PreconditionFailedError';
}
/** 422: a field is missing or invalid (see `errors`), or an Idempotency-Key was reused with another body. */
export class UnprocessableEntityError extends LabstockError {
  override readonly name: string = 'UnprocessableEntityError';
}
/** 429: too many requests; `retryAfter` says when to try again (the client already retried up to maxRetries). */
export class RateLimitedError extends LabstockError {
  override readonly name: string = 'RateLimitedError';
}
/** 500 and above: a fault on the server's side (or a gateway's in front of it). */
export class ServerError extends LabstockError {
  override readonly name: string = 'ServerError';
}
/** 503: the service is briefly unavailable; `retryAfter` says when to try again. */
export class ServiceUnavailableError extends ServerError {
  override readonly name: string = 'ServiceUnavailableError';
}

const BY_STATUS: Record<number, typeof LabstockError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  412: PreconditionFailedError,
  422: UnprocessableEntityError,
  429: RateLimitedError,
  503: ServiceUnavailableError,
};

/** The LabstockError subclass for a response's status, holding its body. */
export function errorFor(response: Response, body: unknown): LabstockError {
  const Class = BY_STATUS[response.status] ?? (response.status >= 500 ? ServerError : LabstockError);
  return new Class(response, body);
}

/**
 * Whether `value` is an API error (of this or another copy of the package); with `code`, whether it is that one:
 * `if (isLabstockError(err, 'invalid_transition')) console.log(err.allowed)`.
 */
export function isLabstockError(value: unknown, code?: string): value is LabstockError {
  if (typeof value !== 'object' || value === null || !(BRAND in value)) return false;
  return code === undefined || (value as unknown as LabstockError).code === code;
}

/**
 * The request never got an answer: the network failed (DNS, a refused or reset connection). A TypeError, as
 * fetch's own network failure is, so code that tests `instanceof TypeError` keeps working; the original is `cause`.
 */
export class LabstockConnectionError extends TypeError {
  override readonly name: string = 'LabstockConnectionError';
}

/** No complete answer within the request's `timeout` (a LabstockConnectionError). */
export class LabstockTimeoutError extends LabstockConnectionError {
  override readonly name: string = 'LabstockTimeoutError';
}

function isErrorBody(body: unknown): body is ErrorBody {
  if (typeof body !== 'object' || body === null) return false;
  const { message, code } = body as Record<string, unknown>;
  return typeof message === 'string' && typeof code === 'string';
}

/** What every openapi-fetch call resolves to: the parsed body on success, the error body otherwise. */
export interface CallResult<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

/**
 * The data of a successful call, or a thrown LabstockError (the subclass for its status):
 * `const lab = await unwrap(api.GET('/labs/{id}', …))`. A 204 gives undefined.
 */
export async function unwrap<Data>(call: CallResult<Data> | Promise<CallResult<Data>>): Promise<Data> {
  const { data, error, response } = await call;
  if (!response.ok) throw errorFor(response, error);
  return data as Data;
}

/**
 * Like unwrap, with the response's meta beside the data: `const { data: item, meta } = await unwrapWithMeta(…)`,
 * then `meta.etag` for a later `If-Match`, `meta.totalCount` for a list.
 */
export async function unwrapWithMeta<Data>(
  call: CallResult<Data> | Promise<CallResult<Data>>,
): Promise<{ data: Data; meta: ResponseMeta }> {
  const result = await call;
  return { data: await unwrap(result), meta: responseMeta(result.response) };
}
