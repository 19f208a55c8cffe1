import type { Db } from '../shared/db/database.js';
import { AppError, fieldError, notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { nowIso } from '../shared/time.js';
import * as repo from './repository.js';
import { fitsDepth, MAX_LOCATION_DEPTH } from './rules.js';

/** Adds a location under `parentId` (or at the root) of a lab's tree. */
export async function createLocation(db: Db, input: { labId: string; parentId: string | null; name: string }) {
  const name = input.name.trim();
  if (!name || name.length > 200) throw fieldError('name', 'must be 1 to 200 characters');
  return db.transaction().execute(async (trx) => {
    let parentDepth = 0;
    if (input.parentId) {
      const parent = await repo.findLocation(trx, input.parentId);
      if (!parent || parent.lab_id !== input.labId) throw notFound('parent location');
      parentDepth = await repo.depthOf(trx, parent.id);
    }
    if (!fitsDepth(parentDepth, 1)) throw new AppError('conflict', `locations are at most ${MAX_LOCATION_DEPTH} levels deep`);
    if (await repo.findSibling(trx, input.labId, input.parentId, name)) {
      throw new AppError('conflict', `a location named "${name}" already exists at that level`);
    }
    const row = { id: newId(), lab_id: input.labId, parent_id: input.parentId, name, created_at: nowIso() };
    await repo.insertLocation(trx, row);
    return row;
  });
}
