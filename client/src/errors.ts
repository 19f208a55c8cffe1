import type { components } from './generated/schema.js';

/** The API's error body (docs/errors.md): `message`, a stable `code`, the `request_id`, and per-field errors. */
export type ErrorBody = components['schemas']['ErrorResponse'];

/**
 * A response that was not a success, as a thrown error: the HTTP status and the body's `code`, `message` and
 * `request_id` (quote it when reporting a problem; the server logs it). A body that is not the API's error shape
 * (a proxy's page, say) still gives a LabstockError, with code `http_<status>`.
 */
export class LabstockError extends Error {
  override readonly name = 'LabstockError';
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
  /** Seconds to wait before retrying (429, 503), from Retry-After. */
  readonly retryAfter: number | undefined;
  readonly response: Response;

  constructor(response: Response, body: unknown) {
    const error = isErrorBody(body) ? body : undefined;
    super(
      error?.message ?? (typeof body === 'string' && body ? body.slice(0, 200) : `HTTP ${response.status} ${response.statusText}`.trim()),
    );
    this.status = response.status;
    this.code = error?.code ?? `http_${response.status}`;
    this.request_id = error?.request_id ?? response.headers.get('x-request-id') ?? '';
    this.errors = error?.errors ?? [];
    this.allowed = error?.allowed;
    const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN);
    this.retryAfter = Number.isFinite(retryAfter) ? retryAfter : undefined;
    this.response = response;
  }
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
 * The data of a successful call, or a thrown LabstockError: `const lab = await unwrap(api.GET('/labs/{id}', …))`.
 * A 204 gives undefined.
 */
export async function unwrap<Data>(call: CallResult<Data> | Promise<CallResult<Data>>): Promise<Data> {
  const { data, error, response } = await call;
  if (!response.ok) throw new LabstockError(response, error);
  return data as Data;
}
