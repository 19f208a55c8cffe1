import { LabstockConnectionError, LabstockTimeoutError } from './errors.js';
import { parseRetryAfter } from './meta.js';

/** Options any single call can override: `api.GET(path, { …, timeout: 5_000, maxRetries: 0 })`. */
export interface RequestOptions {
  /** Milliseconds for the whole exchange, answer body included, of each attempt (default 30 000). */
  timeout?: number;
  /** How many times a failed idempotent request is sent again (default 2; 0 never retries). */
  maxRetries?: number;
}

/** What a retry is about to do, for logs and metrics (`onRetry`). */
export interface RetryInfo {
  /** 1 for the first retry. */
  attempt: number;
  /** Milliseconds the client waits before it: the answer's Retry-After, or backoff with jitter. */
  delay: number;
  method: string;
  url: string;
  /** The status that is retried, or undefined for a network failure or a timeout. */
  status: number | undefined;
  /** The network failure or timeout that is retried. */
  error: Error | undefined;
}

export interface TransportOptions extends RequestOptions {
  /** First backoff delay in ms (default 500); doubled on each retry up to 8 s, with jitter. */
  initialRetryDelay?: number;
  /**
   * The longest wait the client accepts (default 60 000 ms): an answer whose Retry-After asks for more is
   * returned as it is (a RateLimitedError from unwrap) rather than waited for.
   */
  maxRetryDelay?: number;
  /** Send an `Idempotency-Key` (a new UUID per call) on every POST and PATCH that has none (default true). */
  idempotencyKeys?: boolean;
  /** Called before each retry. */
  onRetry?: (info: RetryInfo) => void;
  /** A fetch to use instead of the global one. */
  fetch?: (request: Request) => Promise<Response>;
}

type Fetch = (request: Request, init?: RequestInit) => Promise<Response>;

export const DEFAULT_TIMEOUT = 30_000;
export const DEFAULT_MAX_RETRIES = 2;
const MAX_BACKOFF = 8_000;

// Safe to send again: the methods HTTP defines as idempotent, and POST/PATCH carrying an Idempotency-Key (the
// server answers a repeat with the first answer, docs/api.md "Idempotency-Key").
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const KEYED = new Set(['POST', 'PATCH']);
// A busy or rate-limited server, or the gateway in front of it that could not reach it.
const RETRIED_STATUS = new Set([429, 502, 503, 504]);
// Statuses whose Response may not have a body (the Response constructor refuses one).
const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * The fetch every call goes through: an Idempotency-Key on POST/PATCH, a timeout per attempt, the caller's
 * AbortSignal, and retries of idempotent requests on network failures, timeouts, 429, 502, 503 and 504 (and a 409
 * with Retry-After to a keyed request: the same key still running on the server), honouring Retry-After.
 */
export function createTransport(options: TransportOptions): (request: Request, init?: RequestInit) => Promise<Response> {
  const timeout = options.timeout ?? DEFAULT_TIMEOUT;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const initialDelay = options.initialRetryDelay ?? 500;
  const maxDelay = options.maxRetryDelay ?? 60_000;
  const fetchImpl: Fetch = options.fetch ?? ((request, init) => globalThis.fetch(request, init));

  return async function transport(request: Request, init?: RequestInit): Promise<Response> {
    const method = request.method.toUpperCase();
    // Made once per call, so every retry of the call carries the same key; a key the caller gave wins.
    if (KEYED.has(method) && options.idempotencyKeys !== false && !request.headers.has('idempotency-key')) {
      request.headers.set('Idempotency-Key', uuid());
    }
    const keyed = request.headers.has('idempotency-key');
    const retriable = IDEMPOTENT.has(method) || (KEYED.has(method) && keyed);
    const caller = request.signal;

    for (let attempt = 0; ; attempt++) {
      const mayRetry = retriable && attempt < maxRetries;
      let response: Response;
      try {
        response = await attemptOnce(fetchImpl, mayRetry ? request.clone() : request, init, timeout);
      } catch (err) {
        if (caller.aborted) throw caller.reason ?? err;
        if (!mayRetry) throw err;
        const delay = backoff(initialDelay, attempt);
        options.onRetry?.({ attempt: attempt + 1, delay, method, url: request.url, status: undefined, error: err as Error });
        await sleep(delay, caller);
        continue;
      }
      const inProgress = response.status === 409 && keyed && response.headers.has('retry-after');
      if (!mayRetry || !(RETRIED_STATUS.has(response.status) || inProgress)) return response;
      const asked = parseRetryAfter(response.headers.get('retry-after'));
      if (asked !== undefined && asked > maxDelay) return response;
      const delay = asked ?? backoff(initialDelay, attempt);
      options.onRetry?.({ attempt: attempt + 1, delay, method, url: request.url, status: response.status, error: undefined });
      await sleep(delay, caller);
    }
  };
}

/**
 * One exchange, the answer's body read in full within the timeout (a server that sends headers and then stalls
 * is a timeout too), given back as a Response over those bytes.
 */
async function attemptOnce(fetchImpl: Fetch, request: Request, init: RequestInit | undefined, timeout: number): Promise<Response> {
  const caller = request.signal;
  const controller = new AbortController();
  const expired = new LabstockTimeoutError(`No answer within ${timeout} ms: ${request.method} ${request.url}`);
  const timer = setTimeout(() => controller.abort(expired), timeout);
  const onAbort = () => controller.abort(caller.reason);
  if (caller.aborted) onAbort();
  else caller.addEventListener('abort', onAbort, { once: true });
  try {
    const response = await fetchImpl(new Request(request, { signal: controller.signal }), init);
    const body = NULL_BODY.has(response.status) ? null : await response.arrayBuffer();
    const copy = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    // url and redirected are read-only on a constructed Response; keep what fetch reported.
    Object.defineProperties(copy, { url: { value: response.url }, redirected: { value: response.redirected } });
    return copy;
  } catch (err) {
    if (controller.signal.reason === expired && !caller.aborted) throw expired;
    if (caller.aborted) throw caller.reason ?? err;
    throw new LabstockConnectionError(`${request.method} ${request.url} failed: ${(err as Error)?.message ?? err}`, { cause: err });
  } finally {
    clearTimeout(timer);
    caller.removeEventListener('abort', onAbort);
  }
}

/** Exponential backoff with jitter: between half and all of initial × 2^attempt, at most 8 s. */
function backoff(initial: number, attempt: number): number {
  const ceiling = Math.min(initial * 2 ** attempt, MAX_BACKOFF);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const done = () => {
      signal.removeEventListener('abort', abort);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', abort, { once: true });
  });
}

/**
 * A random (version 4) UUID. crypto.randomUUID exists only in secure contexts: a page served over plain HTTP on
 * a network address has getRandomValues but not randomUUID.
 */
function uuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
