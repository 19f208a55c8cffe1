import { visibleLabIds } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';

// The item -> type pairs that src/hazards/repository.ts effectiveHazards takes (hazards/ never reads inventory_items).

/** Of these ids, the items the actor sees, with their types. */
export const visibleItemTypes = (ex: Executor, actor: Actor, ids: string[]) =>
  ex
    .selectFrom('inventory_items')
    .select(['id', 'type_id'])
    .where('id', 'in', ids)
    .where('lab_id', 'in', visibleLabIds(ex, actor))
    .execute();
