// client/README.md, "Errors" (quoted after the marker; compiled by client/test/readme.test.ts).
import type { LabstockClient } from '@labstock/client';

declare const api: LabstockClient;
declare const id: string;

// ---- README ----
import {
  ConflictError,
  isLabstockError,
  LabstockConnectionError,
  LabstockError,
  NotFoundError,
  RateLimitedError,
  UnprocessableEntityError,
  unwrap,
} from '@labstock/client';

try {
  await unwrap(api.PUT('/order-requests/{id}', { params: { path: { id } }, body: { status: 'ORDERED' } }));
} catch (err) {
  if (err instanceof NotFoundError) console.log('No such request, or not visible to this token');
  else if (err instanceof ConflictError && err.code === 'invalid_transition') console.log('It may now become', err.allowed);
  else if (err instanceof UnprocessableEntityError) console.log(err.errors.map((e) => `${e.field}: ${e.message}`));
  else if (err instanceof RateLimitedError) console.log(`Slow down: retry in ${err.retryAfter} s`);
  else if (err instanceof LabstockError) console.error(`${err.status} ${err.code}: ${err.message} (request ${err.request_id})`);
  else if (err instanceof LabstockConnectionError) console.error('No answer:', err.message, err.cause);
  else throw err;
}

// Without instanceof (two copies of the package in one bundle, say):
const result = await api.GET('/order-requests/{id}', { params: { path: { id } } });
const failed = await unwrap(result).catch((err: unknown) => err);
if (isLabstockError(failed, 'not_found')) console.log(failed.headers.get('x-request-id'));
