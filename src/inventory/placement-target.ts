import { ancestorIdsOf } from '../locations/repository.js';
import type { Executor } from '../shared/db/database.js';
import type { Incoming } from './placement.js';
import { locationsOfItem } from './placement-repository.js';
import { findItemByCatalog } from './repository.js';

// Where an approved order request's goods will go, for the limit check at approval (docs/safety.md): nobody has
// said yet, so Labstock takes where the lab keeps that product now, the item receiving would add to (same vendor
// and catalog number): every control area holding one of its active containers is checked with the whole request.
// A product the lab does not hold yet goes to no known area: its limits are checked when it is received or put away.

export interface RequestGoods {
  labId: string;
  vendor: string;
  catalogNumber: string;
  name: string;
  typeId: string | null;
  unitSize: string | null;
  quantity: string;
}

export async function approvalTarget(ex: Executor, goods: RequestGoods): Promise<{ areaIds: string[]; incoming: Incoming } | null> {
  const item = await findItemByCatalog(ex, goods.labId, goods.vendor, goods.catalogNumber);
  if (!item) return null;
  const locations = await locationsOfItem(ex, item.id);
  if (locations.length === 0) return null;
  const ids = new Set<string>();
  for (const l of locations) for (const id of await ancestorIdsOf(ex, l)) ids.add(id);
  return {
    areaIds: [...ids],
    incoming: {
      instanceId: null,
      itemId: item.id,
      typeId: item.type_id ?? goods.typeId,
      itemName: goods.name,
      unitSize: goods.unitSize ?? item.unit_size,
      quantity: goods.quantity,
    },
  };
}
