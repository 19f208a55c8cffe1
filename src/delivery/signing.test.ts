import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signatureHeader } from './signing.js';

describe('signatureHeader', () => {
  const keys = ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', `whsec_${Buffer.from('another key, 24 bytes!!!').toString('base64')}`];
  const at = new Date('2026-11-21T10:00:00.750Z');
  const bodies = ['{"a":1}', JSON.stringify({ text: 'unicode: µ → ✓ 🧪', n: 'x'.repeat(3000) })];

  it('equals the standardwebhooks signer, one v1 signature per key', () => {
    for (const body of bodies) {
      expect(signatureHeader([keys[0]!], 'msg_1', at, body)).toBe(new Webhook(keys[0]!).sign('msg_1', at, body));
      expect(signatureHeader(keys, 'msg_2', at, body)).toBe(keys.map((k) => new Webhook(k).sign('msg_2', at, body)).join(' '));
    }
  });

  it('verifies with the standardwebhooks verifier', () => {
    const now = new Date();
    const body = bodies[1]!;
    const headers = {
      'webhook-id': 'msg_3',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signatureHeader(keys, 'msg_3', now, body),
    };
    for (const k of keys) expect(new Webhook(k).verify(body, headers)).toEqual(JSON.parse(body));
  });
});
