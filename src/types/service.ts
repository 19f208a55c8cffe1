import { emitEvent } from '../events/outbox.js';
import { requireLabManager } from '../labs/approval-settings.js';
import { findVisibleLab, labsByIds, lockLab } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import { isUniqueViolation } from '../shared/db/database.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, fieldError, notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Page } from '../shared/pagination.js';
import { shownChanged } from '../shared/shown-elsewhere.js';
import { nowIso } from '../shared/time.js';
import * as repo from './repository.js';
import type { InventoryType, RenameTypeBody } from './schemas.js';

export const listTypes = (deps: ServiceDeps, actor: Actor, filter: repo.TypeFilter, page: Page) =>
  repo.listVisibleTypes(deps.db, actor, filter, page);

/** GET /labs/{id}/type-usage: a lab the caller does not see is 404. */
export async function typeUsageOfLab(deps: ServiceDeps, actor: Actor, labId: string, page: Page) {
  if (!(await findVisibleLab(deps.db, actor, labId))) throw notFound('lab');
  return repo.pageTypeUsage(deps.db, labId, page);
}

// Anyone who sees a lab reads its types (GET /types, the contract); creating, renaming and deleting them are the
// lab's managers' (org admins act as managers, docs/ordering.md "Lab roles"): a type names a shelf of the whole lab.
const MANAGE = 'create, rename and delete its types';

const checkName = (raw: string): string => {
  const name = raw.trim();
  if (!name || name.length > 200) throw fieldError('name', 'must be 1 to 200 characters');
  return name;
};

/** Creates a type in a lab (names are unique per lab, case-insensitively) and emits type.created. */
export async function createType(deps: ServiceDeps, actor: Actor, input: { labId: string; name: string }): Promise<InventoryType> {
  const name = checkName(input.name);
  return deps.db.transaction().execute(async (trx) => {
    const lab = await findVisibleLab(trx, actor, input.labId);
    if (!lab) throw notFound('lab');
    await requireLabManager(trx, actor, lab.id, MANAGE);
    await lockLab(trx, lab.id);
    if (await repo.findTypeByKey(trx, input.labId, repo.typeNameKey(name))) {
      throw new AppError('conflict', `the lab already has a type named "${name}"`);
    }
    const now = nowIso();
    const row = { id: newId(), lab_id: input.labId, name, name_key: repo.typeNameKey(name), created_at: now, updated_at: now };
    await repo.insertType(trx, row).catch((err) => {
      throw isUniqueViolation(err) ? new AppError('conflict', `the lab already has a type named "${name}"`) : err;
    });
    const type: InventoryType = { id: row.id, name: row.name, lab };
    await emitEvent(trx, deps.config, { type: 'type.created', organizationId: lab.organization.id, labId: lab.id, resource: type });
    return type;
  });
}

/** Renames a type (unique per lab, case-insensitively) and emits type.updated; the same name changes nothing. */
export async function renameType(deps: ServiceDeps, actor: Actor, id: string, input: RenameTypeBody): Promise<InventoryType> {
  const name = checkName(input.name);
  return deps.db.transaction().execute(async (trx) => {
    const row = await repo.findVisibleType(trx, actor, id);
    if (!row) throw notFound('type');
    await requireLabManager(trx, actor, row.lab_id, MANAGE);
    const lab = (await labsByIds(trx, [row.lab_id])).get(row.lab_id)!;
    if (row.name === name) return { id: row.id, name: row.name, lab };
    await lockLab(trx, row.lab_id);
    const clash = await repo.findTypeByKey(trx, row.lab_id, repo.typeNameKey(name));
    if (clash && clash.id !== row.id) throw new AppError('conflict', `the lab already has a type named "${clash.name}"`);
    await repo.renameType(trx, row.id, name, nowIso()).catch((err) => {
      throw isUniqueViolation(err) ? new AppError('conflict', `the lab already has a type named "${name}"`) : err;
    });
    await shownChanged(trx, deps.config.appUrl, { typeIds: [row.id] });
    const type: InventoryType = { id: row.id, name, lab };
    await emitEvent(trx, deps.config, { type: 'type.updated', organizationId: lab.organization.id, labId: lab.id, resource: type });
    return type;
  });
}

/** Deletes an unused type and emits type.deleted with its last state; 409 while items or requests use it. */
export async function deleteType(deps: ServiceDeps, actor: Actor, id: string): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const row = await repo.findVisibleType(trx, actor, id);
    if (!row) throw notFound('type');
    await requireLabManager(trx, actor, row.lab_id, MANAGE);
    const usage = await repo.typeUsage(trx, row.id);
    if (usage.items + usage.orders > 0) {
      throw new AppError(
        'conflict',
        `The type is used by ${usage.items} item(s) and ${usage.orders} order request(s); move them to another type first`,
      );
    }
    const lab = (await labsByIds(trx, [row.lab_id])).get(row.lab_id)!;
    if (!(await repo.deleteType(trx, row.id))) throw notFound('type');
    await emitEvent(trx, deps.config, {
      type: 'type.deleted',
      organizationId: lab.organization.id,
      labId: lab.id,
      resource: { id: row.id, name: row.name, lab },
    });
  });
}
