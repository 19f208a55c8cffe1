/** Who is calling: one user, acting in one organization, through one token. */
export interface Actor {
  tokenId: string;
  userId: string;
  organizationId: string;
  role: 'admin' | 'member';
  isOperator: boolean;
}

export const isOrgAdmin = (actor: Actor): boolean => actor.role === 'admin';
