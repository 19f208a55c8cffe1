// Test data through the real services, and reads of what a request must leave untouched: shared by the test
// folders (no tests here).

import { expect } from 'vitest';
import { createToken, createUser, revokeToken } from '../../src/accounts/service.js';
import type { NewInstance } from '../../src/inventory/instances.js';
import { createItem, type NewItem } from '../../src/inventory/items.js';
import { rerender } from '../../src/inventory/stored/documents.js';
import { addMember } from '../../src/labs/service.js';
import { type Actor, systemActor } from '../../src/shared/actor.js';
import { nowIso } from '../../src/shared/time.js';
import type { OrgFixture } from './fixtures.js';
import type { Harness } from './harness.js';

/** Everything a failed request must leave untouched. */
export async function dbState(h: Harness) {
  const db = h.deps.db;
  const [items, instances, events, changes, labs] = await Promise.all([
    db.selectFrom('inventory_items').selectAll().orderBy('id').execute(),
    db.selectFrom('inventory_item_instances').selectAll().orderBy('id').execute(),
    db.selectFrom('events').select(['id']).orderBy('id').execute(),
    db.selectFrom('inventory_item_changes').select(['id']).orderBy('id').execute(),
    db.selectFrom('labs').selectAll().orderBy('id').execute(),
  ]);
  return { items, instances, events: events.map((e) => e.id), changes: changes.map((c) => c.id), labs };
}

export async function getItemJson(h: Harness, token: string, id: string): Promise<{ status: number; body: any; etag: string | undefined }> {
  const res = await h.call(token, { method: 'GET', url: `/inventory-items/${id}` });
  return { status: res.statusCode, body: res.statusCode === 200 ? res.json() : undefined, etag: res.headers.etag as string | undefined };
}

/** A fresh token for one of the fixture users, and its id (so a test can revoke it). */
export async function newToken(h: Harness, org: OrgFixture, who: 'admin' | 'member' | 'outsider' = 'admin') {
  return createToken(h.deps.db, systemActor('cli'), { userId: org[who].id, organizationId: org.orgId, name: `extra-${who}` });
}

/** A token that existed, worked, and was revoked. */
export async function revokedToken(h: Harness, org: OrgFixture): Promise<string> {
  const t = await newToken(h, org);
  const ok = await h.call(t.token, { method: 'GET', url: '/user' });
  expect(ok.statusCode).toBe(200);
  await revokeToken(h.deps.db, systemActor('cli'), t.id);
  return t.token;
}

/** Creates an item through the service, as `actor` (usually an org fixture's admin.actor). */
export function addItem(h: Harness, actor: Actor, input: NewItem, instances: NewInstance[] = []) {
  return createItem(h.deps, actor, input, instances);
}

/** Archives an instance the way the application does: the row stays, with archived_at set. */
export async function archiveInstance(h: Harness, instanceId: string): Promise<void> {
  await h.deps.db.updateTable('inventory_item_instances').set({ archived_at: nowIso() }).where('id', '=', instanceId).execute();
  // Written straight to the table, as an older version could have: the item's stored document is written again so
  // that reads show what the rows now hold (src/inventory/stored/).
  const { item_id } = await h.deps.db
    .selectFrom('inventory_item_instances')
    .select('item_id')
    .where('id', '=', instanceId)
    .executeTakeFirstOrThrow();
  await rerender(h.deps.db, h.config.appUrl, [item_id]);
}

/**
 * Org B's admin joins org A as a plain member of A's legacy lab; a token of that user for org A (it must show
 * nothing of org B: a token is scoped to its organization, whatever its user is elsewhere).
 */
export async function bAdminTokenInA(h: Harness): Promise<string> {
  await createUser(h.deps.db, systemActor('cli'), {
    organizationId: h.a.orgId,
    email: 'admin-b@example.org',
    firstName: 'Ada',
    lastName: 'AdminB',
    role: 'member',
  });
  await addMember(h.deps.db, h.a.admin.actor, h.a.legacyLab.id, h.b.admin.id);
  return (await createToken(h.deps.db, systemActor('cli'), { userId: h.b.admin.id, organizationId: h.a.orgId })).token;
}
