import { findOrganization, findOrgMembership } from '../accounts/repository.js';
import { type Actor, isOrgAdmin, isSystemActor, type SystemActor } from '../shared/actor.js';
import type { Db } from '../shared/db/database.js';
import { AppError, fieldError, notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Page } from '../shared/pagination.js';
import { nowIso } from '../shared/time.js';
import * as repo from './repository.js';
import type { Lab } from './schemas.js';

/** Refuses an organization's member: only its admins manage labs (the system, for the command line, may). */
export function requireLabAdmin(by: Actor | SystemActor): void {
  if (!isSystemActor(by) && !isOrgAdmin(by)) throw new AppError('forbidden', 'Only organization admins manage labs');
}

/**
 * Creates a lab in an organization: an org admin's own (another is named like an unknown one), or any for the
 * command line.
 */
export async function createLab(
  db: Db,
  by: Actor | SystemActor,
  input: { organizationId: string; name: string; usesInstances?: boolean },
): Promise<Lab> {
  requireLabAdmin(by);
  const name = input.name.trim();
  if (!name) throw fieldError('name', 'must not be empty');
  if (!isSystemActor(by) && input.organizationId !== by.organizationId) throw notFound('organization');
  if (!(await findOrganization(db, input.organizationId))) throw notFound('organization');
  const row = {
    id: newId(),
    organization_id: input.organizationId,
    name,
    uses_instances: input.usesInstances ? 1 : 0,
    created_at: nowIso(),
  };
  await repo.insertLab(db, row);
  return (await repo.labsByIds(db, [row.id])).get(row.id)!;
}

/**
 * Adds a user of the lab's organization to the lab (409 for anyone else): the command line's, and the fixtures'
 * acting as the org admin (the API's is addOrganizationLabMember, which names another organization's user 404).
 */
export async function addMember(db: Db, by: Actor | SystemActor, labId: string, userId: string) {
  const lab = await repo.findLabRow(db, labId);
  if (!lab || (!isSystemActor(by) && lab.organization_id !== by.organizationId)) throw notFound('lab');
  requireLabAdmin(by);
  if (!(await findOrgMembership(db, lab.organization_id, userId))) {
    throw new AppError('conflict', "the user is not a member of the lab's organization; add them to it first");
  }
  const added = await repo.addLabMember(db, labId, userId, nowIso());
  return { lab_id: labId, user_id: userId, added };
}

export const listLabs = (db: Db, actor: Actor, filter: repo.LabFilter, page: Page) => repo.listVisibleLabs(db, actor, filter, page);

export async function getLab(db: Db, actor: Actor, id: string): Promise<Lab> {
  const lab = await repo.findVisibleLab(db, actor, id);
  if (!lab) throw notFound('lab');
  return lab;
}
