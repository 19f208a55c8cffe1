import { type AuthCache, authChanged, forgetAuth, touchWhenDue } from '../accounts/auth-cache.js';
import * as accounts from '../accounts/repository.js';
import { generateOperatorToken, hashToken, TOKEN_TOUCH_INTERVAL_MS } from '../accounts/tokens.js';
import type { OperatorActor, SystemActor } from '../shared/actor.js';
import type { Db, Executor } from '../shared/db/database.js';
import { AppError, fieldError, notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { EMAIL_RULE, isEmailAddress } from '../shared/schemas.js';
import { nowIso } from '../shared/time.js';
import * as repo from './repository.js';

// Service operators (docs/decisions/0004-operators.md): principals of the service, created and managed only
// from the command line, whose tokens authenticate only on shop fulfilment. Everything they do is audited.
// Managing them is installation-level, so those services take a SystemActor: no route can build one.

/** Where an audited action came from when no operator token was used. */
const CLI_OPERATOR = (op: repo.OperatorRow): OperatorActor => ({
  kind: 'operator',
  operatorId: op.id,
  userId: op.user_id,
  tokenId: null,
  via: 'cli',
  requestId: null,
});

export interface AuditEntry {
  action: string;
  lineId?: string | null;
  shipmentId?: string | null;
  outcome?: string;
  detail?: Record<string, unknown> | null;
}

/** Writes one audit row; call it inside the transaction of the change so one never commits without the other. */
export async function recordAudit(ex: Executor, who: OperatorActor, entry: AuditEntry): Promise<void> {
  await repo.insertAudit(ex, {
    id: newId(),
    operator_id: who.operatorId,
    action: entry.action,
    sales_order_item_id: entry.lineId ?? null,
    shipment_id: entry.shipmentId ?? null,
    outcome: entry.outcome ?? 'ok',
    via: who.via,
    token_id: who.tokenId,
    request_id: who.requestId,
    detail: entry.detail ? JSON.stringify(entry.detail) : null,
    created_at: nowIso(),
  });
}

export interface CreateOperatorInput {
  email: string;
  firstName: string;
  lastName: string;
}

/**
 * Creates an operator principal. The user with the same e-mail (created without any organization if there is
 * none) is who tenants see in the history of the requests the operator changes; it gains no rights from this.
 */
export async function createOperator(db: Db, _by: SystemActor, input: CreateOperatorInput) {
  const email = input.email.trim().toLowerCase();
  if (!isEmailAddress(email)) throw fieldError('email', EMAIL_RULE);
  const firstName = input.firstName.trim();
  const lastName = input.lastName.trim();
  if (!firstName) throw fieldError('first_name', 'must not be empty');
  if (!lastName) throw fieldError('last_name', 'must not be empty');
  return db.transaction().execute(async (trx) => {
    const existing = await repo.findOperatorByEmail(trx, email);
    if (existing) {
      if (existing.disabled_at === null) throw new AppError('conflict', `An operator with e-mail ${email} already exists: ${existing.id}`);
      await repo.setDisabledAt(trx, existing.id, null);
      await recordAudit(trx, CLI_OPERATOR(existing), { action: 'operator.enabled' });
      return { ...existing, disabled_at: null };
    }
    const now = nowIso();
    let user = await accounts.findUserByEmail(trx, email);
    if (!user) {
      user = { id: newId(), email, first_name: firstName, last_name: lastName, is_operator: 0, created_at: now };
      await accounts.insertUser(trx, user);
    }
    const row: repo.OperatorRow = {
      id: newId(),
      email,
      first_name: firstName,
      last_name: lastName,
      user_id: user.id,
      created_at: now,
      disabled_at: null,
    };
    await repo.insertOperator(trx, row);
    await recordAudit(trx, CLI_OPERATOR(row), { action: 'operator.created' });
    return row;
  });
}

async function mustFind(ex: Executor, idOrEmail: string): Promise<repo.OperatorRow> {
  const key = idOrEmail.trim();
  const row = key.includes('@') ? await repo.findOperatorByEmail(ex, key.toLowerCase()) : await repo.findOperator(ex, key);
  if (!row) throw notFound(`operator ${key}`);
  return row;
}

/** Disables an operator and revokes its tokens at once. */
export async function disableOperator(db: Db, _by: SystemActor, idOrEmail: string) {
  const disabled = await db.transaction().execute(async (trx) => {
    const op = await mustFind(trx, idOrEmail);
    if (op.disabled_at !== null) return op;
    const now = nowIso();
    await repo.setDisabledAt(trx, op.id, now);
    const revoked = await repo.revokeTokensOf(trx, op.id, now);
    await recordAudit(trx, CLI_OPERATOR(op), { action: 'operator.disabled', detail: { tokens_revoked: revoked } });
    await authChanged(trx, { operatorId: op.id });
    return { ...op, disabled_at: now };
  });
  forgetAuth({ operatorId: disabled.id });
  return disabled;
}

/**
 * `admin user set-operator` and `user create --operator` of old: the user's e-mail gets an operator principal
 * (or, with on = false, its operator is disabled). The user's own tokens never fulfil either way.
 */
export async function setUserOperator(db: Db, by: SystemActor, userId: string, on: boolean) {
  const user = await accounts.findUser(db, userId);
  if (!user) throw notFound('user');
  const existing = await repo.findOperatorByEmail(db, user.email);
  if (!on) return existing ? disableOperator(db, by, existing.id) : null;
  if (existing && existing.disabled_at === null) return existing;
  return createOperator(db, by, { email: user.email, firstName: user.first_name, lastName: user.last_name });
}

/**
 * The principal the command line acts as: an operator that is not disabled, by id or e-mail, or by the id of the
 * user it names, so scripts written for `--operator USER` (with `admin user set-operator`) keep working.
 */
export async function cliOperator(db: Db, idOrEmail: string): Promise<OperatorActor> {
  const key = idOrEmail.trim();
  let op: repo.OperatorRow | undefined;
  if (!key.includes('@') && !(await repo.findOperator(db, key))) {
    const user = await accounts.findUser(db, key);
    if (user) {
      op = await repo.findOperatorOfUser(db, user.id);
      if (!op)
        throw new AppError('forbidden', `User ${user.id} is not a service operator (admin operator create, or admin user set-operator)`);
    }
  }
  op ??= await mustFind(db, key);
  if (op.disabled_at !== null) throw new AppError('forbidden', `Operator ${op.id} is disabled`);
  return CLI_OPERATOR(op);
}

/** Returns the plain token once (prefix lso_); only its hash is kept. */
export async function createOperatorToken(db: Db, _by: SystemActor, input: { operator: string; name?: string | null }) {
  return db.transaction().execute(async (trx) => {
    const op = await mustFind(trx, input.operator);
    if (op.disabled_at !== null)
      throw new AppError('conflict', `Operator ${op.id} is disabled; enable it first (admin operator create with the same e-mail)`);
    const token = generateOperatorToken();
    const row = {
      id: newId(),
      operator_id: op.id,
      name: input.name ?? null,
      token_hash: hashToken(token),
      created_at: nowIso(),
      last_used_at: null,
      revoked_at: null,
    };
    await repo.insertToken(trx, row);
    await recordAudit(trx, CLI_OPERATOR(op), { action: 'token.created', detail: { token_id: row.id, name: row.name } });
    return { id: row.id, token, operator_id: op.id, name: row.name, created_at: row.created_at };
  });
}

export async function revokeOperatorToken(db: Db, _by: SystemActor, tokenId: string) {
  const token = await db.transaction().execute(async (trx) => {
    const token = await repo.findToken(trx, tokenId);
    if (!token) throw notFound('operator token');
    if (!token.revoked_at) {
      await repo.revokeToken(trx, tokenId, nowIso());
      const op = (await repo.findOperator(trx, token.operator_id))!;
      await recordAudit(trx, CLI_OPERATOR(op), { action: 'token.revoked', detail: { token_id: tokenId } });
      await authChanged(trx, { tokenId });
    }
    return (await repo.findToken(trx, tokenId))!;
  });
  forgetAuth({ tokenId });
  return token;
}

/** What the cache keeps of an operator token (src/accounts/auth-cache.ts). */
interface CachedOperatorToken {
  operatorId: string;
  userId: string;
  tokenId: string;
  usedAt: number;
}

/** Null for an unknown or revoked token and for a disabled operator; cached like tenant tokens (src/accounts/service.ts). */
export async function authenticateOperator(
  db: Db,
  rawToken: string,
  requestId: string | null,
  cache?: AuthCache,
): Promise<OperatorActor | null> {
  const now = Date.now();
  const hash = hashToken(rawToken);
  let found = cache?.get<CachedOperatorToken>('operator', hash, now);
  if (!found || now - found.usedAt > TOKEN_TOUCH_INTERVAL_MS) {
    const mark = cache?.mark() ?? 0;
    const row = await repo.findActiveTokenByHash(db, hash);
    if (!row) {
      cache?.delete(hash);
      return null;
    }
    const usedAt = await touchWhenDue(row.last_used_at, now, (at) => repo.touchToken(db, row.token_id, at));
    found = { operatorId: row.operator_id, userId: row.user_id, tokenId: row.token_id, usedAt };
    cache?.set('operator', hash, found, { ...found, organizationId: null }, mark, now);
  }
  return { kind: 'operator', operatorId: found.operatorId, userId: found.userId, tokenId: found.tokenId, via: 'api', requestId };
}

export async function listAudit(
  db: Db,
  _by: SystemActor,
  filter: { operator?: string; lineId?: string; shipmentId?: string; limit?: number },
) {
  const operatorId = filter.operator ? (await mustFind(db, filter.operator)).id : undefined;
  const rows = await repo.listAudit(db, { operatorId, lineId: filter.lineId, shipmentId: filter.shipmentId, limit: filter.limit ?? 100 });
  return rows.map((r) => ({ ...r, detail: r.detail === null ? null : (JSON.parse(r.detail) as unknown) }));
}

export const listOperators = (db: Db, _by: SystemActor) => repo.listOperators(db);
export const listOperatorTokens = async (db: Db, _by: SystemActor, operator?: string) =>
  repo.listTokens(db, operator ? (await mustFind(db, operator)).id : undefined);
