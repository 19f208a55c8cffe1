import type { Actor } from '../shared/actor.js';
import type { Db } from '../shared/db/database.js';
import { nowIso } from '../shared/time.js';
import * as repo from './repository.js';
import type { NotificationPreferences, NotificationPreferencesBody } from './schemas.js';

// A person's notification preferences (docs/alerts.md), per organization: the caller's choice in the organization
// the token or session acts in, so that one organization cannot silence what the person gets from another (issue
// 22). Without a stored row the defaults apply.

const DEFAULTS: NotificationPreferences = { email_digest: true };

/** GET /user/notifications: the caller's own preferences. */
export async function getPreferences(db: Db, actor: Actor): Promise<NotificationPreferences> {
  const row = await repo.findPreferences(db, actor.userId, actor.organizationId);
  return row ? { email_digest: row.email_digest === 1 } : { ...DEFAULTS };
}

/** PUT /user/notifications: the caller's preferences as the body states them. */
export async function setPreferences(db: Db, actor: Actor, body: NotificationPreferencesBody): Promise<NotificationPreferences> {
  await repo.savePreferences(db, actor.userId, actor.organizationId, body.email_digest, nowIso());
  return { email_digest: body.email_digest };
}
