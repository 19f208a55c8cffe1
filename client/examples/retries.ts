// client/README.md, "Timeouts and retries" (quoted after the marker; compiled by client/test/readme.test.ts).
declare const baseUrl: string;
declare const token: string;
declare const labId: string;

// ---- README ----
import { createLabstockClient } from '@labstock/client';

const api = createLabstockClient({
  baseUrl,
  token,
  timeout: 10_000, // per attempt, answer body included (default 30 s)
  maxRetries: 4, // default 2
  onRetry: ({ attempt, delay, status, error }) => console.warn(`retry ${attempt} in ${delay} ms`, status ?? error?.message),
});

// One call with its own timeout and no retries.
await api.GET('/labs', { timeout: 2_000, maxRetries: 0 });

// Several calls with other defaults (the same credentials and middleware).
const patient = api.withOptions({ timeout: 120_000 });
await patient.GET('/inventory-items', { params: { query: { lab_id: labId, per_page: 100 } } });

// Cancel with an AbortSignal: an abort is never retried.
await api.GET('/inventory-items', { signal: AbortSignal.timeout(5_000) });
