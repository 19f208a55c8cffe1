import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Db } from './db/database.js';
import { AppError, fieldError } from './errors.js';

// PRODUCT §2: a POST with an Idempotency-Key answers a retry (same token, key and body within 24 h) with the
// first response instead of doing the work twice; the same key with another body is 422. Only successful
// responses are kept: a failed attempt changed nothing, so repeating it is safe and may now succeed.

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
const KEY_RE = /^[\x21-\x7e]{1,255}$/;

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { key: string; bodyHash: string };
  }
}

const hashBody = (method: string, path: string, body: unknown): string =>
  createHash('sha256').update(`${method} ${path}\n${JSON.stringify(body ?? null)}`).digest('hex');

export function installIdempotency(app: FastifyInstance, db: Db): void {
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' || !request.actor) return;
    const raw = request.headers['idempotency-key'];
    if (raw === undefined) return;
    const key = Array.isArray(raw) ? raw[0] ?? '' : raw;
    if (!KEY_RE.test(key)) throw fieldError('Idempotency-Key', 'must be 1 to 255 visible ASCII characters');
    const path = request.url.split('?')[0]!;
    const bodyHash = hashBody(request.method, path, request.body);
    const since = new Date(Date.now() - IDEMPOTENCY_WINDOW_MS).toISOString();
    const stored = await db.selectFrom('idempotency_keys').selectAll()
      .where('token_id', '=', request.actor.tokenId).where('key', '=', key).where('created_at', '>', since).executeTakeFirst();
    if (stored) {
      if (stored.body_hash !== bodyHash) {
        throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used with a different request; use a new key for a new request');
      }
      reply.header('Idempotent-Replayed', 'true');
      return reply.code(stored.status_code).type('application/json; charset=utf-8').serializer((p: unknown) => p as string).send(stored.response_body);
    }
    request.idempotency = { key, bodyHash };
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const idem = request.idempotency;
    if (!idem || reply.statusCode >= 300 || typeof payload !== 'string') return payload;
    const since = new Date(Date.now() - IDEMPOTENCY_WINDOW_MS).toISOString();
    // An expired entry for the same key gives way to the new one.
    await db.deleteFrom('idempotency_keys').where('token_id', '=', request.actor.tokenId).where('key', '=', idem.key).where('created_at', '<=', since).execute();
    try {
      await db.insertInto('idempotency_keys').values({
        token_id: request.actor.tokenId, key: idem.key, method: request.method, path: request.url.split('?')[0]!, body_hash: idem.bodyHash,
        status_code: reply.statusCode, response_body: payload, created_at: new Date().toISOString(),
      }).execute();
    } catch (err) {
      // Two concurrent first attempts with one key: the first stored response stands.
      request.log.warn({ err }, 'idempotency key already stored');
    }
    return payload;
  });
}
