import { findOrgMembership } from '../accounts/repository.js';
import type { Actor } from '../shared/actor.js';
import type { Db } from '../shared/db/database.js';
import type { LabRole } from '../shared/db/schema.js';
import { fieldError, notFound } from '../shared/errors.js';
import type { Page } from '../shared/pagination.js';
import { shownChanged } from '../shared/shown-elsewhere.js';
import { nowIso } from '../shared/time.js';
import { setLabRole } from './approval-repository.js';
import { requireLabManager } from './approval-settings.js';
import * as repo from './repository.js';
import type { CreateOrganizationLabBody, LabMember, OrganizationLab, UpdateOrganizationLabBody } from './schemas.js';
import { createLab, requireLabAdmin } from './service.js';

// Org admins manage the organization's labs and lab memberships by API (docs/auth.md). Archiving hides a lab from
// GET /labs lists and keeps everything in it readable by id; it can be undone. Another organization's lab is 404
// for everyone, a member is refused (403) only for their own organization's labs.

type LabRow = { id: string; name: string; uses_instances: number; archived_at: string | null; created_at: string };
const toOrganizationLab = (r: LabRow): OrganizationLab => ({
  id: r.id,
  name: r.name,
  uses_instances: r.uses_instances === 1,
  archived_at: r.archived_at,
  created_at: r.created_at,
});

const requireAdmin = requireLabAdmin;

async function ownLab(db: Db, actor: Actor, labId: string, opts: { managers?: boolean } = {}) {
  const lab = await repo.findLabRow(db, labId);
  if (!lab || lab.organization_id !== actor.organizationId) throw notFound('lab');
  // A lab's managers manage its members and their roles too (docs/ordering.md); the rest stays with org admins.
  if (opts.managers) await requireLabManager(db, actor, labId, 'manage its members');
  else requireAdmin(actor);
  return lab;
}

export async function listOrganizationLabs(db: Db, actor: Actor, page: Page) {
  requireAdmin(actor);
  const { total, rows } = await repo.pageOrganizationLabs(db, actor.organizationId, page);
  return { total, labs: rows.map(toOrganizationLab) };
}

export async function createOrganizationLab(db: Db, actor: Actor, input: CreateOrganizationLabBody): Promise<OrganizationLab> {
  const lab = await createLab(db, actor, { organizationId: actor.organizationId, name: input.name, usesInstances: input.uses_instances });
  return toOrganizationLab((await repo.findLabRow(db, lab.id))!);
}

/** `appUrl` (config.appUrl): a new name shows in the lab's items' stored documents, rewritten in the same transaction. */
export async function updateOrganizationLab(db: Db, appUrl: string, actor: Actor, labId: string, input: UpdateOrganizationLabBody) {
  const lab = await ownLab(db, actor, labId);
  const set: { name?: string; archived_at?: string | null } = {};
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (!name) throw fieldError('name', 'must not be empty');
    set.name = name;
  }
  if (input.archived === true && lab.archived_at === null) set.archived_at = nowIso();
  if (input.archived === false) set.archived_at = null;
  if (set.name !== undefined && set.name !== lab.name)
    await db.transaction().execute(async (trx) => {
      await repo.updateLabRow(trx, labId, set);
      await shownChanged(trx, appUrl, { labIds: [labId] });
    });
  else if (Object.keys(set).length > 0) await repo.updateLabRow(db, labId, set);
  return toOrganizationLab((await repo.findLabRow(db, labId))!);
}

export async function listLabMembers(db: Db, actor: Actor, labId: string): Promise<LabMember[]> {
  await ownLab(db, actor, labId, { managers: true });
  const rows = await repo.listLabMemberRows(db, labId);
  return rows.map(({ created_at, ...user }) => ({ ...user, added_at: created_at }));
}

/**
 * Adds a member of the organization to the lab (as a member unless `role` says otherwise); true when added, false
 * when they already belonged to it (then a given `role` replaces theirs).
 */
export async function addOrganizationLabMember(db: Db, actor: Actor, labId: string, userId: string, role?: LabRole): Promise<boolean> {
  await ownLab(db, actor, labId, { managers: true });
  // A user of another organization is named like an unknown one: their id is not for this tenant to probe.
  const membership = await findOrgMembership(db, actor.organizationId, userId);
  if (!membership) throw notFound('user');
  const added = await repo.addLabMember(db, labId, userId, nowIso(), role ?? 'member');
  if (!added && role !== undefined) await setLabRole(db, labId, userId, role);
  return added;
}

/** PUT /organization/labs/{id}/members/{userId}: a member's role in the lab. */
export async function setLabMemberRole(db: Db, actor: Actor, labId: string, userId: string, role: LabRole): Promise<LabMember> {
  await ownLab(db, actor, labId, { managers: true });
  // In a transaction: a write that found no one is then no write at all, so a refused retry-safe request leaves
  // nothing behind (src/server/idempotency.ts releases the claim of a request that committed nothing).
  await db.transaction().execute(async (tx) => {
    if (!(await setLabRole(tx, labId, userId, role))) throw notFound('lab member');
  });
  // Read without the check: a manager who just made themselves a member may no longer list the members.
  const { created_at, ...user } = (await repo.listLabMemberRows(db, labId)).find((m) => m.id === userId)!;
  return { ...user, added_at: created_at };
}

export async function removeOrganizationLabMember(db: Db, actor: Actor, labId: string, userId: string): Promise<void> {
  await ownLab(db, actor, labId, { managers: true });
  if (!(await repo.removeLabMember(db, labId, userId))) throw notFound('lab member');
}
