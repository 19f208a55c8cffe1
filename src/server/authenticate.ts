import type { AuthCache } from '../accounts/auth-cache.js';
import { authenticate } from '../accounts/service.js';
import { OPERATOR_TOKEN_PREFIX } from '../accounts/tokens.js';
import { authenticateOperator } from '../operators/service.js';
import type { Actor, OperatorActor } from '../shared/actor.js';
import type { Db } from '../shared/db/database.js';

// Who a request's token names: a tenant user or a service operator (docs/decisions/0004-operators.md). Here, above
// both folders, so that accounts and operators do not import each other.

export type Principal = { kind: 'user'; actor: Actor } | { kind: 'operator'; operator: OperatorActor };

/** A tenant user's token or a service operator's (lso_…): each kind only ever found in its own table (or cached). */
export async function authenticatePrincipal(db: Db, rawToken: string, requestId: string, cache?: AuthCache): Promise<Principal | null> {
  if (rawToken.startsWith(OPERATOR_TOKEN_PREFIX)) {
    const operator = await authenticateOperator(db, rawToken, requestId, cache);
    return operator && { kind: 'operator', operator };
  }
  const actor = await authenticate(db, rawToken, cache);
  return actor && { kind: 'user', actor };
}
