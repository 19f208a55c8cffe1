import ipaddr from 'ipaddr.js';
import { Agent, request } from 'undici';
import type { Config } from '../shared/config.js';
import { VERSION } from '../shared/version.js';
import { type DeliveryFormat, encodeDelivery } from './formats.js';
import { signatureHeader } from './signing.js';
import { blockedReason, type Cidr, guardedLookup, hostOf, isLocalName, parseCidrs } from './ssrf.js';
import { type ThreadTimes, wallNow } from './trace.js';

export type AttemptOutcome = 'success' | 'http_error' | 'timeout' | 'network_error' | 'blocked' | 'redirect';

export interface SendResult {
  outcome: AttemptOutcome;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The first bytes of the response body, for the delivery log. */
  responseBody: string | null;
  /** From Retry-After on 429/503. */
  retryAfterMs: number | null;
  /** When WEBHOOK_TRACE is on: the send thread's own timestamps of the exchange (trace.ts). */
  times?: ThreadTimes;
}

export interface OutgoingMessage {
  url: string;
  messageId: string;
  /** The stored event's JSON; the webhook's format makes the body actually sent (and signed) from it. */
  payload: string;
  format: DeliveryFormat;
  /** Signing keys, newest first; empty when the webhook is unsigned. */
  keys: string[];
}

export const USER_AGENT = `Labstock-Webhooks/${VERSION}`;
const RESPONSE_EXCERPT_BYTES = 1024;

export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim()) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

async function excerpt(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_EXCERPT_BYTES) break;
    }
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
}

export interface Sender {
  /** `times.requested`, when given, is set just before the request goes out (signing and encoding done). */
  send(message: OutgoingMessage, times?: Partial<ThreadTimes>): Promise<SendResult>;
  /** The CloudEvents webhook validation handshake (OPTIONS + WebHook-Request-Origin). */
  handshake(url: string, origin: string): Promise<{ ok: boolean; detail: string }>;
  close(): Promise<void>;
}

export function createSender(config: Pick<Config, 'webhookTimeoutMs' | 'webhookAllowedCidrs'>): Sender {
  const allowed: Cidr[] = parseCidrs(config.webhookAllowedCidrs);
  const timeout = config.webhookTimeoutMs;
  const agent = new Agent({
    connect: { lookup: guardedLookup(allowed), timeout },
    headersTimeout: timeout,
    bodyTimeout: timeout,
    keepAliveTimeout: 10_000,
  });

  /** net.connect skips `lookup` for literal addresses, so those are checked here. */
  function literalProblem(url: URL): string | null {
    const host = hostOf(url);
    if (ipaddr.isValid(host)) return blockedReason(host, allowed);
    if (isLocalName(host) && blockedReason('127.0.0.1', allowed) !== null) return `${host} names this machine`;
    return null;
  }

  function classify(err: unknown): { outcome: AttemptOutcome; error: string } {
    const e = err as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
    const code = e.code ?? e.cause?.code;
    if (code === 'EBLOCKEDADDRESS') return { outcome: 'blocked', error: e.message ?? e.cause?.message ?? 'blocked address' };
    if (
      e.name === 'TimeoutError' ||
      e.name === 'AbortError' ||
      code === 'UND_ERR_HEADERS_TIMEOUT' ||
      code === 'UND_ERR_BODY_TIMEOUT' ||
      code === 'UND_ERR_CONNECT_TIMEOUT'
    ) {
      return { outcome: 'timeout', error: `no response within ${timeout} ms` };
    }
    return { outcome: 'network_error', error: `${code ?? e.name ?? 'error'}: ${e.message ?? String(err)}` };
  }

  return {
    async send(message, times) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      let url: URL;
      try {
        url = new URL(message.url);
      } catch {
        return { outcome: 'network_error', statusCode: null, durationMs: 0, error: 'invalid URL', responseBody: null, retryAfterMs: null };
      }
      const problem = literalProblem(url);
      if (problem) return { outcome: 'blocked', statusCode: null, durationMs: 0, error: problem, responseBody: null, retryAfterMs: null };

      const { contentType, body: sent } = encodeDelivery(message.payload, message.format);
      const headers: Record<string, string> = { 'content-type': contentType, 'user-agent': USER_AGENT };
      if (message.keys.length > 0) {
        const now = new Date();
        const signature = signatureHeader(message.keys, message.messageId, now, sent);
        headers['webhook-id'] = message.messageId;
        headers['webhook-timestamp'] = String(Math.floor(now.getTime() / 1000));
        headers['webhook-signature'] = signature;
        headers.signature = signature;
      }
      if (times) times.requested = wallNow();
      try {
        const res = await request(url, {
          method: 'POST',
          headers,
          body: sent,
          dispatcher: agent,
          signal: AbortSignal.timeout(timeout),
        });
        const body = await excerpt(res.body as never);
        const statusCode = res.statusCode;
        if (statusCode >= 200 && statusCode < 300)
          return { outcome: 'success', statusCode, durationMs: elapsed(), error: null, responseBody: body, retryAfterMs: null };
        if (statusCode >= 300 && statusCode < 400) {
          return {
            outcome: 'redirect',
            statusCode,
            durationMs: elapsed(),
            error: `redirect to ${String(res.headers.location ?? '?')} not followed`,
            responseBody: body,
            retryAfterMs: null,
          };
        }
        const retryAfterMs = statusCode === 429 || statusCode === 503 ? parseRetryAfter(res.headers['retry-after']) : null;
        return { outcome: 'http_error', statusCode, durationMs: elapsed(), error: `HTTP ${statusCode}`, responseBody: body, retryAfterMs };
      } catch (err) {
        return { ...classify(err), statusCode: null, durationMs: elapsed(), responseBody: null, retryAfterMs: null };
      }
    },

    async handshake(rawUrl, origin) {
      let url: URL;
      try {
        url = new URL(rawUrl);
      } catch {
        return { ok: false, detail: 'invalid URL' };
      }
      const problem = literalProblem(url);
      if (problem) return { ok: false, detail: problem };
      try {
        const res = await request(url, {
          method: 'OPTIONS',
          headers: { 'webhook-request-origin': origin, 'user-agent': USER_AGENT },
          dispatcher: agent,
          signal: AbortSignal.timeout(timeout),
        });
        await excerpt(res.body as never);
        const allowedOrigin = String(res.headers['webhook-allowed-origin'] ?? '').trim();
        const ok = res.statusCode >= 200 && res.statusCode < 300 && (allowedOrigin === '*' || allowedOrigin === origin);
        return { ok, detail: ok ? 'verified' : `answered ${res.statusCode} with WebHook-Allowed-Origin "${allowedOrigin}"` };
      } catch (err) {
        return { ok: false, detail: classify(err).error };
      }
    },

    close: () => agent.close(),
  };
}
