import { expect } from 'vitest';
import { createUser } from '../../src/accounts/service.js';
import { utcDate } from '../../src/alerts/rules.js';
import { addMember } from '../../src/labs/service.js';
import { systemActor } from '../../src/shared/actor.js';
import { type EventMark, eventsSince, expectMatchesPublishedSchema } from '../helpers/events.js';
import type { Harness } from '../helpers/harness.js';

// Helpers of the reminders-and-alerts tests (docs/alerts.md). Dates are relative to the real today (UTC): the scan
// reads the clock, nothing is mocked.

/** Today plus `days`, YYYY-MM-DD in UTC. */
export const inDays = (days: number): string => utcDate(new Date(Date.now() + days * 86_400_000));

export async function ok(h: Harness, token: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: unknown) {
  const res = await h.call(token, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.json();
}

/** The alert events written since `before`, each validated against its published schema. */
export async function alertEvents(h: Harness, before: EventMark) {
  const out: { short: string; itemId: string; alert: any; item: any; labId: string | null }[] = [];
  for (const { row, event } of await eventsSince(h, before)) {
    const short = row.type.replace(`com.${h.config.eventVendor}.`, '');
    if (short !== 'inventory-item.expiring' && short !== 'inventory-item.below-minimum') continue;
    await expectMatchesPublishedSchema(h, short, event);
    const data = event.data as any;
    out.push({ short, itemId: data.inventory_item.id, alert: data.alert, item: data.inventory_item, labId: row.lab_id });
  }
  return out;
}

/** A further member of a lab, with a token. */
export async function labMember(h: Harness, orgId: string, labId: string, email: string) {
  const user = await createUser(h.deps.db, systemActor('cli'), {
    organizationId: orgId,
    email,
    firstName: 'Rita',
    lastName: 'Reminded',
    role: 'member',
  });
  await addMember(h.deps.db, systemActor('cli'), labId, user.id);
  return user;
}
