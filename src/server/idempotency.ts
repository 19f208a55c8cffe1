import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Transaction, TransactionBuilder } from 'kysely';
import { type Db, isUniqueViolation } from '../shared/db/database.js';
import type { Database } from '../shared/db/schema.js';
import { AppError, fieldError } from '../shared/errors.js';
import * as repo from './idempotency-repository.js';

// docs/product.md §2 and §14: a POST, PATCH or PUT with an Idempotency-Key answers a retry (same token or session, key and
// body within 24 h) with the first response instead of doing the work twice; the same key with another body is 422.
// A route whose answer holds a secret shown once (POST /user/tokens) is claimed the same way but its answer is not
// stored (config idempotency 'without-answer'): a retry of a request that succeeded is 409 idempotency_key_completed,
// so a double-click still makes one token and the secret is never written down.
//
// The key is claimed (a row inserted) before the handler runs, so concurrent retries cannot both do the work.
// A claim's status_code tells how far the request got:
//   IN_PROGRESS (0)  nothing committed yet. A failure releases the claim (a retry may do the work); a claim
//                    older than ABANDONED_CLAIM_MS belongs to a request that died and a retry may take it over.
//   COMMITTED (1)    the request's work committed: set inside the same transaction as the work (claimAwareDb
//                    below), so "committed" and "claim marked" are one fact on both databases. From then on the
//                    claim is never released nor taken over, whatever happens to the response.
//   100-599          the response, stored (after a commit: whatever its status, a 500 included) and replayed.
// A transaction commits only while its request still owns the claim: if a retry took the claim over meanwhile,
// marking finds no row and the transaction rolls back (409), so the work is never done twice.

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A claim still in progress after this long belongs to a request that died; a retry may take it over. */
export const ABANDONED_CLAIM_MS = 60_000;
const IN_PROGRESS = 0;
const COMMITTED = 1;
const PENDING = [IN_PROGRESS, COMMITTED] as const;
const KEY_RE = /^[\x21-\x7e]{1,255}$/;
/**
 * The methods whose requests are claimed. PUT too: it sets a state, but a second send is still a second change to
 * record (a webhook's `webhook.updated`, a quantity's history entry) and may undo what someone did in between, so the
 * web application's PUTs (status moves, webhook edits, settings) happen once like its POSTs (docs/api.md). DELETE is
 * not: a second one finds nothing and answers 404.
 */
export const CLAIMED_METHODS: ReadonlySet<string> = new Set(['POST', 'PATCH', 'PUT']);

interface Claim extends repo.ClaimId {
  /** The answer is not stored (it holds a secret): only its status, so a retry is told the work was done. */
  withoutAnswer: boolean;
  /** Until the response is stored: transactions of this request mark the claim. */
  active: boolean;
  /** A transaction of this request committed (and marked the claim). */
  committed: boolean;
  /** A write ran outside any transaction: it may have committed without marking the claim. */
  wroteOutside: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: Claim;
  }
}

/** The claim of the request being handled, carried through the handler's async calls into the services. */
const claims = new AsyncLocalStorage<Claim>();

const WRITES = new Set<PropertyKey>(['insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto']);

/**
 * The database handed to services (app.deps.db): the same database, whose `transaction().execute(fn)` also marks
 * the request's Idempotency-Key claim COMMITTED inside the transaction, just before it commits. Outside a request
 * holding a claim it behaves exactly like `db`.
 */
export function claimAwareDb(db: Db): Db {
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'transaction') return () => claimAwareTransaction(target.transaction());
      if (WRITES.has(prop)) {
        const claim = claims.getStore();
        if (claim?.active) claim.wroteOutside = true;
      }
      const cached = bound.get(prop);
      if (cached !== undefined) return cached;
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      const fn = (value as (...args: unknown[]) => unknown).bind(target);
      bound.set(prop, fn);
      return fn;
    },
  });
}

function claimAwareTransaction(builder: TransactionBuilder<Database>): TransactionBuilder<Database> {
  return new Proxy(builder, {
    get(target, prop) {
      if (prop === 'execute') return <T>(fn: (trx: Transaction<Database>) => Promise<T>) => executeMarking(target, fn);
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        return result instanceof TransactionBuilder ? claimAwareTransaction(result as TransactionBuilder<Database>) : result;
      };
    },
  });
}

async function executeMarking<T>(builder: TransactionBuilder<Database>, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  const claim = claims.getStore();
  if (!claim?.active || claim.committed) return builder.execute(fn);
  const result = await builder.execute(async (trx) => {
    const value = await fn(trx);
    if (!(await repo.setPendingStatus(trx, claim, COMMITTED, PENDING))) {
      throw new AppError(
        'conflict',
        'This request ran so long that a retry with the same Idempotency-Key took it over; it changed nothing',
        {
          headers: { 'Retry-After': '1' },
        },
      );
    }
    return value;
  });
  claim.committed = true;
  return result;
}

/**
 * The headers of the first answer that a replay repeats: where the created resource is and its version. They are
 * stored in the response column ahead of the body, on a first line no JSON body can start with, so rows stored
 * before (the body alone) read as they did and no migration is needed.
 */
const REPLAYED_HEADERS = ['location', 'etag'] as const;
const HEADERS_LINE = '#headers ';

function storedAnswer(reply: FastifyReply, body: string): string {
  const kept = Object.fromEntries(
    REPLAYED_HEADERS.flatMap((name) => {
      const value = reply.getHeader(name);
      return typeof value === 'string' ? [[name, value]] : [];
    }),
  );
  return Object.keys(kept).length > 0 ? `${HEADERS_LINE}${JSON.stringify(kept)}\n${body}` : body;
}

function readStoredAnswer(stored: string): { headers: Record<string, string>; body: string } {
  if (!stored.startsWith(HEADERS_LINE)) return { headers: {}, body: stored };
  const end = stored.indexOf('\n');
  return { headers: JSON.parse(stored.slice(HEADERS_LINE.length, end)) as Record<string, string>, body: stored.slice(end + 1) };
}

const hashBody = (method: string, path: string, raw: Buffer | undefined): string =>
  createHash('sha256')
    .update(`${method} ${path}\n`)
    .update(raw ?? Buffer.alloc(0))
    .digest('hex');

type ClaimOutcome = { claim: Claim } | { replay: { status: number; body: string } } | null;

async function claimKey(db: Db, request: FastifyRequest): Promise<ClaimOutcome> {
  // Tenant and operator tokens alike (their ids are UUIDs from one generator, so keys never collide across kinds), and
  // sessions: a signed-in browser's actor carries `session:<id>` (src/accounts/sessions.ts), so its keys are its own.
  const tokenId = request.actor?.tokenId ?? request.operator?.tokenId;
  const mode = request.routeOptions.config?.idempotency;
  // Routes whose body holds a password or a one-time link's secret opt out (their body is not even hashed).
  if (!CLAIMED_METHODS.has(request.method) || !tokenId || mode === false) return null;
  const withoutAnswer = mode === 'without-answer';
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? (raw[0] ?? '') : raw;
  if (!KEY_RE.test(key)) throw fieldError('Idempotency-Key', 'must be 1 to 255 visible ASCII characters');
  const path = request.url.split('?')[0]!;
  // The raw bytes (src/server/json-body.ts), never the parsed value: hashing must not walk untrusted nesting. The
  // query string is part of what is asked (`?dry_run=true` against the real import): one key, other query → 422.
  const bodyHash = hashBody(request.method, request.url, request.rawBody);
  const now = Date.now();
  const claimedAt = new Date(now).toISOString();

  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await repo.insertClaim(db, {
        token_id: tokenId,
        key,
        method: request.method,
        path,
        body_hash: bodyHash,
        status_code: IN_PROGRESS,
        response_body: '',
        created_at: claimedAt,
      });
      return { claim: { tokenId, key, claimedAt, withoutAnswer, active: true, committed: false, wroteOutside: false } };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    const stored = await repo.findClaim(db, tokenId, key);
    if (!stored) continue; // released meanwhile: claim again
    const age = now - Date.parse(stored.created_at);
    if (age > IDEMPOTENCY_WINDOW_MS || (stored.status_code === IN_PROGRESS && age > ABANDONED_CLAIM_MS)) {
      // Deleted only if still in that state: a claim that committed meanwhile is kept (PostgreSQL re-checks the
      // condition after the committing transaction's row lock is released).
      await repo.deleteStaleClaim(db, tokenId, key, stored.created_at, stored.status_code);
      continue;
    }
    if (stored.body_hash !== bodyHash) {
      throw new AppError(
        'idempotency_key_reused',
        'This Idempotency-Key was used with a different request; use a new key for a new request',
      );
    }
    if (stored.status_code === COMMITTED && age > ABANDONED_CLAIM_MS) {
      throw new AppError(
        'idempotency_key_completed',
        'The request with this Idempotency-Key did its work, but its response was lost; ' +
          'read the resource to see the result, and use a new key to do it again',
      );
    }
    if (stored.status_code < 100) {
      throw new AppError('conflict', 'A request with this Idempotency-Key is still in progress; retry in a moment', {
        headers: { 'Retry-After': '1' },
      });
    }
    if (withoutAnswer && stored.status_code < 300) {
      throw new AppError(
        'idempotency_key_completed',
        'The first request with this Idempotency-Key did its work; its answer held a secret shown only once, so it is not repeated',
      );
    }
    return { replay: { status: stored.status_code, body: stored.response_body } };
  }
  throw new AppError('conflict', 'The Idempotency-Key is being claimed concurrently; retry in a moment', {
    headers: { 'Retry-After': '1' },
  });
}

async function finish(db: Db, claim: Claim, reply: FastifyReply, payload: unknown): Promise<void> {
  claim.active = false;
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
  const body = claim.withoutAnswer && reply.statusCode < 300 ? '' : storedAnswer(reply, text);
  const status = reply.statusCode;
  // A success is kept whether or not it wrote; after a commit (or a write that may have committed) any answer is.
  if (status < 300 || claim.committed || claim.wroteOutside) {
    await repo.storeResponse(db, claim, status, body, PENDING);
    return;
  }
  // The row is the truth: a commit whose acknowledgement was lost still marked it.
  if (await repo.storeResponse(db, claim, status, body, [COMMITTED])) return;
  await repo.releaseClaim(db, claim, IN_PROGRESS);
}

export function installIdempotency(app: FastifyInstance, db: Db): void {
  // Callback style, so the handler runs inside claims.run(): an async hook's continuation would not carry it.
  app.addHook('preHandler', (request, reply, done) => {
    claimKey(db, request).then(
      (outcome) => {
        if (outcome === null) return done();
        if ('replay' in outcome) {
          const { headers, body } = readStoredAnswer(outcome.replay.body);
          reply
            .headers(headers)
            .header('Idempotent-Replayed', 'true')
            .code(outcome.replay.status)
            .type('application/json; charset=utf-8')
            .serializer((p: unknown) => p as string)
            .send(body);
          return;
        }
        request.idempotency = outcome.claim;
        claims.run(outcome.claim, done);
      },
      (err: Error) => done(err),
    );
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotency;
    if (!claim) return payload;
    request.idempotency = undefined;
    await finish(db, claim, reply, payload);
    return payload;
  });
}
