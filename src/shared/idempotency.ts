import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type Db, isUniqueViolation } from './db/database.js';
import { AppError, fieldError } from './errors.js';

// PRODUCT §2: a POST with an Idempotency-Key answers a retry (same token, key and body within 24 h) with the
// first response instead of doing the work twice; the same key with another body is 422. The key is claimed
// (inserted) before the handler runs, so concurrent retries cannot both do the work: the others get 409 until the
// first finishes, then its response. Only successful responses are kept: a failed attempt changed nothing, so its
// claim is released and a retry may do the work.

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A claim still in progress after this long belongs to a request that died; a retry may take it over. */
const ABANDONED_CLAIM_MS = 60_000;
const IN_PROGRESS = 0;
const KEY_RE = /^[\x21-\x7e]{1,255}$/;

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: { key: string; claimedAt: string };
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
    const tokenId = request.actor.tokenId;
    const now = Date.now();
    const claimedAt = new Date(now).toISOString();

    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await db.insertInto('idempotency_keys').values({
          token_id: tokenId, key, method: request.method, path, body_hash: bodyHash, status_code: IN_PROGRESS, response_body: '', created_at: claimedAt,
        }).execute();
        request.idempotency = { key, claimedAt };
        return;
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
      const stored = await db.selectFrom('idempotency_keys').selectAll().where('token_id', '=', tokenId).where('key', '=', key).executeTakeFirst();
      if (!stored) continue; // released meanwhile: claim again
      const age = now - Date.parse(stored.created_at);
      const expired = age > IDEMPOTENCY_WINDOW_MS || (stored.status_code === IN_PROGRESS && age > ABANDONED_CLAIM_MS);
      if (expired) {
        await db.deleteFrom('idempotency_keys').where('token_id', '=', tokenId).where('key', '=', key).where('created_at', '=', stored.created_at).execute();
        continue;
      }
      if (stored.body_hash !== bodyHash) {
        throw new AppError('idempotency_key_reused', 'This Idempotency-Key was used with a different request; use a new key for a new request');
      }
      if (stored.status_code === IN_PROGRESS) {
        throw new AppError('conflict', 'A request with this Idempotency-Key is still in progress; retry in a moment', { headers: { 'Retry-After': '1' } });
      }
      reply.header('Idempotent-Replayed', 'true');
      return reply.code(stored.status_code).type('application/json; charset=utf-8').serializer((p: unknown) => p as string).send(stored.response_body);
    }
    throw new AppError('conflict', 'The Idempotency-Key is being claimed concurrently; retry in a moment', { headers: { 'Retry-After': '1' } });
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const idem = request.idempotency;
    if (!idem) return payload;
    request.idempotency = undefined;
    const mine = db.updateTable('idempotency_keys')
      .where('token_id', '=', request.actor.tokenId).where('key', '=', idem.key).where('created_at', '=', idem.claimedAt);
    if (reply.statusCode < 300 && typeof payload === 'string') {
      await mine.set({ status_code: reply.statusCode, response_body: payload }).execute();
    } else {
      await db.deleteFrom('idempotency_keys')
        .where('token_id', '=', request.actor.tokenId).where('key', '=', idem.key).where('created_at', '=', idem.claimedAt).execute();
    }
    return payload;
  });
}
