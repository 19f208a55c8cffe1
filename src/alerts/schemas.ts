import { type Static, Type } from 'typebox';
import { DateTime, NDate, NString, Uuid } from '../shared/schemas.js';

// The `alert` beside `inventory_item` in the alert events, and a person's notification preferences (docs/alerts.md).

export const ALERT_CAUSES = ['expiring', 'below_minimum'] as const;
export type AlertCause = (typeof ALERT_CAUSES)[number];

export const InventoryItemAlert = Type.Object(
  {
    cause: Type.Union([Type.Literal('expiring'), Type.Literal('below_minimum')], {
      description: 'expiring: an expiry falls within the auto_reminder window; below_minimum: the quantity fell below the minimum.',
    }),
    fired_at: DateTime,
    auto_reminder: NString,
    expiration_date: Type.Unsafe<string | null>({
      ...NDate,
      description: "expiring: the soonest expiry within the window (the item's own in a legacy lab, else its instances'); null otherwise.",
    }),
    instance_ids: Type.Array(Uuid, {
      description: 'expiring, in a lab that uses instances: the active instances expiring within the window.',
    }),
    minimum_quantity: Type.Unsafe<string | null>({ ...NString, description: 'below_minimum: the minimum the quantity fell below.' }),
    quantity: Type.String({
      description: "The item's quantity when the alert fired (in a migrated lab, the sum of its active instances).",
    }),
  },
  { $id: 'InventoryItemAlert', title: 'InventoryItemAlert', additionalProperties: false },
);
export type InventoryItemAlert = Static<typeof InventoryItemAlert>;

export const NotificationPreferences = Type.Object(
  {
    email_digest: Type.Boolean({
      description:
        "A daily email listing the reminders and alerts of the caller's labs (on unless turned off). Sent only when SMTP_URL is set.",
    }),
  },
  { $id: 'NotificationPreferences', title: 'NotificationPreferences', additionalProperties: false },
);
export type NotificationPreferences = Static<typeof NotificationPreferences>;

export const NotificationPreferencesBody = Type.Object({ email_digest: Type.Boolean() }, { additionalProperties: false });
export type NotificationPreferencesBody = Static<typeof NotificationPreferencesBody>;
