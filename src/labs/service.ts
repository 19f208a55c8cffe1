import { findOrganization, findOrgMembership } from '../accounts/repository.js';
import type { Actor } from '../shared/actor.js';
import type { Db } from '../shared/db/database.js';
import { AppError, fieldError, notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Page } from '../shared/pagination.js';
import { nowIso } from '../shared/time.js';
import * as repo from './repository.js';
import type { Lab } from './schemas.js';

export async function createLab(db: Db, input: { organizationId: string; name: string; usesInstances?: boolean }): Promise<Lab> {
  const name = input.name.trim();
  if (!name) throw fieldError('name', 'must not be empty');
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

export async function addMember(db: Db, labId: string, userId: string) {
  const lab = await repo.findLabRow(db, labId);
  if (!lab) throw notFound('lab');
  if (!(await findOrgMembership(db, lab.organization_id, userId))) {
    throw new AppError('conflict', "the user is not a member of the lab's organization; add them to it first");
  }
  const added = await repo.addLabMember(db, labId, userId, nowIso());
  return { lab_id: labId, user_id: userId, added };
}

export const listLabs = (db: Db, actor: Actor, filter: { organizationId?: string }, page: Page) =>
  repo.listVisibleLabs(db, actor, filter, page);

export async function getLab(db: Db, actor: Actor, id: string): Promise<Lab> {
  const lab = await repo.findVisibleLab(db, actor, id);
  if (!lab) throw notFound('lab');
  return lab;
}
