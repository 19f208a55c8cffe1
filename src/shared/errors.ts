// One error type for the whole service. `code` is stable and documented (docs/errors.md); the HTTP status is
// derived from it in exactly one place, so a service never decides status codes.

export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_url: 400,
  malformed_request: 400,
  unauthorized: 401,
  forbidden: 403,
  csrf_failed: 403,
  self_approval: 403,
  self_witness: 403,
  not_found: 404,
  method_not_allowed: 405,
  invalid_transition: 409,
  lab_uses_instances: 409,
  lab_migrating: 409,
  import_in_progress: 409,
  approval_required: 409,
  conflict: 409,
  over_budget: 409,
  limit_exceeded: 409,
  segregation_conflict: 409,
  idempotency_key_completed: 409,
  request_timeout: 408,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  expectation_failed: 417,
  validation_failed: 422,
  idempotency_key_reused: 422,
  import_too_many_rows: 422,
  domain_not_verified: 422,
  rate_limited: 429,
  headers_too_large: 431,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldError {
  field: string;
  message: string;
}

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: { errors?: FieldError[]; headers?: Record<string, string>; extra?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found`);

export const validation = (errors: FieldError[]) =>
  new AppError('validation_failed', errors.map((e) => `${e.field}: ${e.message}`).join('; '), { errors });

export const fieldError = (field: string, message: string) => validation([{ field, message }]);
