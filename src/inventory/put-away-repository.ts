import { visibleLabIds } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import { pagedList } from '../shared/db/paged-list.js';
import type { Page } from '../shared/pagination.js';

/** Active instances of the caller's labs (or one of them) that wait to be put away, oldest arrival first. */
export async function pageDueInstances(ex: Executor, actor: Actor, labId: string | undefined, page: Page) {
  let base = ex
    .selectFrom('inventory_item_instances as i')
    .innerJoin('inventory_items as it', 'it.id', 'i.item_id')
    .where('i.put_away_due_at', 'is not', null)
    .where('i.archived_at', 'is', null)
    .where('it.lab_id', 'in', visibleLabIds(ex, actor));
  if (labId) base = base.where('it.lab_id', '=', labId);
  return pagedList(
    base,
    base
      .select([
        'i.id as instance_id',
        'i.item_id',
        'i.quantity',
        'i.lot_number',
        'i.expiration_date',
        'i.location_id',
        'i.put_away_due_at',
        'it.name',
        'it.vendor',
        'it.catalog_number',
        'it.unit_size',
        'it.lab_id',
      ])
      .orderBy('i.put_away_due_at')
      .orderBy('i.id'),
    page,
  );
}
