import type { InventoryItem } from '../inventory/schemas.js';
import { dec } from '../shared/decimal.js';
import type { AlertCause, InventoryItemAlert } from './schemas.js';

// The pure rules of reminders and alerts (docs/alerts.md): when an item is "expiring" given its auto_reminder and
// today, when it is below its minimum, and what its alert says. src/alerts/scan.ts applies them to items as the API
// renders them, so a migrated lab's quantity is its instances' sum and its expiries are its instances'.

/** How long before an expiry each auto_reminder reminds; NONE, null and any other value never do. */
export const REMINDER_WINDOWS: Readonly<Record<string, { days?: number; months?: number }>> = {
  '1WEEK': { days: 7 },
  '2WEEK': { days: 14 },
  '1MONTH': { months: 1 },
  '3MONTH': { months: 3 },
};
export const REMINDERS = Object.keys(REMINDER_WINDOWS);

/** Today's date in UTC, YYYY-MM-DD: expiration dates are calendar dates without a zone. */
export const utcDate = (now: Date): string => now.toISOString().slice(0, 10);

/**
 * The last expiry date the reminder covers: today plus the window. Months are calendar months, clamped to the
 * month's end (31 January + 1 month is 28 or 29 February). null when the value sets no reminder.
 */
export function horizonOf(reminder: string | null, today: string): string | null {
  const window = reminder ? REMINDER_WINDOWS[reminder] : undefined;
  if (!window) return null;
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  if (window.days) return utcDate(new Date(Date.UTC(y, m - 1, d + window.days)));
  const months = window.months ?? 0;
  const lastDay = new Date(Date.UTC(y, m - 1 + months + 1, 0)).getUTCDate();
  return utcDate(new Date(Date.UTC(y, m - 1 + months, Math.min(d, lastDay))));
}

/** The farthest horizon of any reminder from today: the scan's first filter (src/inventory/alert-repository.ts). */
export const latestHorizon = (today: string): string =>
  REMINDERS.map((r) => horizonOf(r, today)!)
    .sort()
    .at(-1)!;

export interface AlertCondition {
  cause: AlertCause;
  alert: Omit<InventoryItemAlert, 'fired_at'>;
}

/**
 * Expiring: an expiry on or before the horizon of the item's auto_reminder, already past ones included (an expired
 * item still needs seeing to). In a lab that uses instances the item's reminder applies to each active instance
 * (the item renders no expiration_date of its own there); in a legacy lab, to the item's own expiration_date.
 */
export function expiringOf(item: InventoryItem, today: string): AlertCondition | null {
  const horizon = horizonOf(item.auto_reminder, today);
  if (!horizon) return null;
  const migrated = item.lab.uses_instances;
  const dates = migrated
    ? item.instances.filter((i) => i.expiration_date !== null && i.expiration_date <= horizon)
    : item.expiration_date !== null && item.expiration_date <= horizon
      ? [{ id: null, expiration_date: item.expiration_date }]
      : [];
  if (dates.length === 0) return null;
  const soonest = dates.map((d) => d.expiration_date!).sort()[0]!;
  return {
    cause: 'expiring',
    alert: {
      cause: 'expiring',
      auto_reminder: item.auto_reminder,
      expiration_date: soonest,
      instance_ids: migrated ? dates.map((d) => d.id!) : [],
      minimum_quantity: null,
      quantity: item.quantity,
    },
  };
}

/** Below minimum: a minimum is set and the quantity is below it (equal is enough). */
export function belowMinimumOf(item: InventoryItem, minimum: string | null): AlertCondition | null {
  if (minimum === null || !dec(item.quantity).lessThan(minimum)) return null;
  return {
    cause: 'below_minimum',
    alert: {
      cause: 'below_minimum',
      auto_reminder: item.auto_reminder,
      expiration_date: null,
      instance_ids: [],
      minimum_quantity: minimum,
      quantity: item.quantity,
    },
  };
}

/** Every condition the item is in now. */
export const conditionsOf = (item: InventoryItem, minimum: string | null, today: string): AlertCondition[] =>
  [expiringOf(item, today), belowMinimumOf(item, minimum)].filter((c): c is AlertCondition => c !== null);

export const ALERT_EVENT_OF = { expiring: 'inventory-item.expiring', below_minimum: 'inventory-item.below-minimum' } as const;
