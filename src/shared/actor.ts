/** Who is calling: one user, acting in one organization, through one token. */
export interface Actor {
  tokenId: string;
  userId: string;
  organizationId: string;
  role: 'admin' | 'member';
}

export const isOrgAdmin = (actor: Actor): boolean => actor.role === 'admin';

/**
 * A service operator (docs/decisions/0004-operators.md): a principal of the service, not of any organization.
 * It is never an Actor, so no tenant service can be handed one; only shop fulfilment takes it.
 */
export interface OperatorActor {
  kind: 'operator';
  operatorId: string;
  /** The user that names the operator in tenants' history (order request events, received items). */
  userId: string;
  /** The operator token used, or null when acting from the command line. */
  tokenId: string | null;
  via: 'api' | 'cli';
  /** The HTTP request id, for the audit trail. */
  requestId: string | null;
}

/**
 * The service acting on its own authority, for the few services the command line needs with no user behind it
 * (creating a lab, adding a lab member, running a lab's migration) and for the server's background migration
 * runner. It is never an Actor either: a tenant service that takes `Actor | SystemActor` checks the tenant for
 * an Actor and skips it only for this, and a route can never build one (docs/decisions/0005-layers.md).
 */
export interface SystemActor {
  kind: 'system';
  via: 'cli' | 'server';
}

export const systemActor = (via: SystemActor['via']): SystemActor => ({ kind: 'system', via });

export const isSystemActor = (who: Actor | SystemActor): who is SystemActor => 'kind' in who && who.kind === 'system';
