import { createHmac } from 'node:crypto';

const PREFIX = 'whsec_';
/** Decoded keys by their `whsec_…` text: a webhook's key is decoded once, not on every attempt. */
const decoded = new Map<string, Buffer>();

function keyBytes(key: string): Buffer {
  let bytes = decoded.get(key);
  if (!bytes) {
    bytes = Buffer.from(key.startsWith(PREFIX) ? key.slice(PREFIX.length) : key, 'base64');
    if (bytes.length === 0) throw new Error("Secret can't be empty.");
    if (decoded.size >= 1000) decoded.clear();
    decoded.set(key, bytes);
  }
  return bytes;
}

/**
 * Standard Webhooks signature header value: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per key,
 * space-separated, so during a key rotation receivers holding either key can verify. Computed with node:crypto
 * (the `standardwebhooks` package's own signer is pure JavaScript); its verifier checks the result in tests.
 */
export function signatureHeader(keys: string[], messageId: string, timestamp: Date, body: string): string {
  const prefix = `${messageId}.${Math.floor(timestamp.getTime() / 1000)}.`;
  return keys.map((key) => `v1,${createHmac('sha256', keyBytes(key)).update(prefix).update(body).digest('base64')}`).join(' ');
}
