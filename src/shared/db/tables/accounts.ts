// Organizations, their users and their API tokens: src/accounts/ owns these tables.
// Column choices (text ids, dates and decimals; 0/1 booleans): src/shared/db/schema.ts.

export interface OrganizationsTable {
  id: string;
  name: string;
  created_at: string;
}
export interface UsersTable {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  is_operator: number;
  created_at: string;
}
export interface OrgMembershipsTable {
  organization_id: string;
  user_id: string;
  role: 'admin' | 'member';
  created_at: string;
}
export interface AccessTokensTable {
  id: string;
  user_id: string;
  organization_id: string;
  name: string | null;
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}
/** One-time links: invitations and password resets (src/shared/db/migrations/0011_user_links.ts). */
export interface UserLinksTable {
  id: string;
  kind: 'invitation' | 'password_reset';
  user_id: string;
  organization_id: string | null;
  token_hash: string;
  created_by: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
  /** Who made it (src/shared/db/migrations/0023_link_sources_and_attempts.ts). */
  source: 'person' | 'admin' | 'operator';
  /** An invitation of an existing account: no membership until accepted, then one with this role (migration 0018). */
  invited_role: 'admin' | 'member' | null;
}
