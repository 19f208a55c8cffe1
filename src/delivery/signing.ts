import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks signature header value: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per key,
 * space-separated, so during a key rotation receivers holding either key can verify.
 */
export function signatureHeader(keys: string[], messageId: string, timestamp: Date, body: string): string {
  return keys.map((key) => new Webhook(key).sign(messageId, timestamp, body)).join(' ');
}
