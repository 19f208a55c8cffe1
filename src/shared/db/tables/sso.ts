// OpenID Connect single sign-on (src/shared/db/migrations/0012_sso.ts): src/accounts/ owns these tables.

export interface OrganizationSsoTable {
  organization_id: string;
  issuer: string;
  client_id: string;
  client_secret: string;
  /** JSON array of lower-case domains. */
  allowed_domains: string;
  enabled: number;
  created_at: string;
  updated_at: string;
}
export interface SsoIdentitiesTable {
  organization_id: string;
  issuer: string;
  subject: string;
  user_id: string;
  created_at: string;
  last_sign_in_at: string;
}
export interface SsoFlowsTable {
  id_hash: string;
  organization_id: string;
  state: string;
  nonce: string;
  code_verifier: string;
  return_to: string | null;
  created_at: string;
  expires_at: string;
  /** Set when a signed-in person links the provider to their account (migration 0018); null for a sign-in. */
  link_user_id: string | null;
}
/** A claimed single sign-on domain (src/shared/db/migrations/0019_sso_domains.ts). */
export interface SsoDomainsTable {
  domain: string;
  organization_id: string;
  verification_token: string;
  verified_at: string | null;
  verified_by: 'dns' | 'operator' | null;
  created_at: string;
}
