// Reminders and alerts (src/alerts/, migration 0013, docs/alerts.md). Owned by src/alerts/repository.ts.

export interface AlertsTable {
  id: string;
  item_id: string;
  lab_id: string;
  organization_id: string;
  /** sds_review: the item's newest safety data sheet is older than SDS_REVIEW_YEARS (digest only, no event). */
  cause: 'expiring' | 'below_minimum' | 'sds_review';
  item_name: string;
  lab_name: string;
  /** JSON of the event's `alert` object (src/alerts/schemas.ts). */
  detail: string;
  fired_at: string;
  /** Set when the condition no longer holds; only then may the same item and cause fire again. */
  cleared_at: string | null;
}
export interface AlertNoticesTable {
  user_id: string;
  alert_id: string;
  created_at: string;
}
export interface NotificationPreferencesTable {
  user_id: string;
  /** No longer read: the setting is per organization, digest_preferences (migration 0018). */
  email_digest: number;
  last_digest_at: string | null;
  digest_lease_until: string | null;
  updated_at: string;
}
/** The daily digest on or off per person and organization (migration 0018); without a row it is on. */
export interface DigestPreferencesTable {
  user_id: string;
  organization_id: string;
  email_digest: number;
  updated_at: string;
}
