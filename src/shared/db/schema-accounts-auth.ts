// Row types added by sign-in (src/shared/db/migrations/0009_sign_in.ts), beside schema.ts so that each change
// stays in its own file. Same portable column choices (docs/decisions/0002-portable-storage.md).

export interface UserPasswordColumns {
  password_hash: string | null;
  password_changed_at: string | null;
}
export interface MembershipStatusColumns {
  deactivated_at: string | null;
}
export interface TokenExpiryColumns {
  expires_at: string | null;
}
export interface LabArchiveColumns {
  archived_at: string | null;
}
export interface SessionsTable {
  id: string;
  secret_hash: string;
  previous_secret_hash: string | null;
  rotated_at: string;
  user_id: string;
  organization_id: string;
  csrf_token: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}
export interface SignInThrottleTable {
  key: string;
  failures: number;
  last_failure_at: string;
  locked_until: string | null;
  /** Attempts being verified, and when the newest was reserved (src/shared/db/migrations/0023_link_sources_and_attempts.ts). */
  pending: number;
  pending_at: string | null;
}
