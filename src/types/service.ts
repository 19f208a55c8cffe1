import { emitEvent } from '../events/outbox.js';
import { labsByIds } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, fieldError, notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Page } from '../shared/pagination.js';
import type { InventoryType } from '../shared/schemas.js';
import { nowIso } from '../shared/time.js';
import * as repo from './repository.js';

export const listTypes = (deps: ServiceDeps, actor: Actor, filter: { labId?: string; name?: string }, page: Page) =>
  repo.listVisibleTypes(deps.db, actor, filter, page);

/** Creates a type in a lab (names are unique per lab, case-insensitively) and emits type.created. */
export async function createType(deps: ServiceDeps, input: { labId: string; name: string }): Promise<InventoryType> {
  const name = input.name.trim();
  if (!name || name.length > 200) throw fieldError('name', 'must be 1 to 200 characters');
  return deps.db.transaction().execute(async (trx) => {
    const lab = (await labsByIds(trx, [input.labId])).get(input.labId);
    if (!lab) throw notFound('lab');
    if (await repo.findTypeByKey(trx, input.labId, repo.typeNameKey(name))) {
      throw new AppError('conflict', `the lab already has a type named "${name}"`);
    }
    const now = nowIso();
    const row = { id: newId(), lab_id: input.labId, name, name_key: repo.typeNameKey(name), created_at: now, updated_at: now };
    await repo.insertType(trx, row);
    const type: InventoryType = { id: row.id, name: row.name, lab };
    await emitEvent(trx, deps.config, { type: 'type.created', organizationId: lab.organization.id, labId: lab.id, resource: type });
    return type;
  });
}
