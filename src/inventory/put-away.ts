import { findVisibleLab, labsByIds } from '../labs/repository.js';
import { locationPaths } from '../locations/repository.js';
import type { Actor } from '../shared/actor.js';
import type { ServiceDeps } from '../shared/deps.js';
import { notFound } from '../shared/errors.js';
import type { Page } from '../shared/pagination.js';
import { nowIso } from '../shared/time.js';
import type { ItemWithEtag } from './changes.js';
import { receivedIdentifiers, setIdentifiersIn } from './identifiers.js';
import { editInstanceIn, lockInstance } from './instances.js';
import { pageDueInstances } from './put-away-repository.js';
import type { PutAwayBody, PutAwayInstance } from './put-away-schemas.js';
import { itemAppUrl } from './render.js';

// Put-away (docs/product.md §14): goods received without a lot, an expiry or a location (a shop delivery, a receipt
// without them) wait on their lab's list until a person fills them in or confirms there is nothing to fill in. What
// is due is the instance's put_away_due_at (migration 0028), set only by receiving (receiveGoodsIn) and cleared here,
// by an edit that completes the three, or by archiving.

/** GET /put-away and GET /labs/{id}/put-away: a page of what waits, with the total. */
export async function listPutAway(
  deps: ServiceDeps,
  actor: Actor,
  labId: string | undefined,
  page: Page,
  opts: { labMustExist?: boolean } = {},
): Promise<{ total: number; instances: PutAwayInstance[] }> {
  if (labId && opts.labMustExist && !(await findVisibleLab(deps.db, actor, labId))) throw notFound('lab');
  const { total, rows } = await pageDueInstances(deps.db, actor, labId, page);
  const [labs, paths] = await Promise.all([
    labsByIds(
      deps.db,
      rows.map((r) => r.lab_id),
    ),
    locationPaths(
      deps.db,
      rows.map((r) => r.location_id),
    ),
  ]);
  const instances = rows.map(
    (r): PutAwayInstance => ({
      item_id: r.item_id,
      instance_id: r.instance_id,
      item_name: r.name,
      vendor: r.vendor,
      catalog_number: r.catalog_number,
      unit_size: r.unit_size,
      quantity: r.quantity,
      lot_number: r.lot_number,
      expiration_date: r.expiration_date,
      location_id: r.location_id,
      location: r.location_id ? (paths.get(r.location_id) ?? null) : null,
      lab: { id: r.lab_id, name: labs.get(r.lab_id)!.name },
      arrived_at: r.put_away_due_at!,
      app_url: itemAppUrl(deps.config.appUrl, r.item_id),
    }),
  );
  return { total, instances };
}

/**
 * POST /inventory-items/{itemId}/instances/{itemInstanceId}/put-away: sets the lot, expiry and location given (as
 * PATCH would) and takes the instance off the list, whatever is still empty: the person says that is all there is.
 * An instance with nothing due only gets the fields given.
 */
export async function putAwayInstance(
  deps: ServiceDeps,
  actor: Actor,
  itemId: string,
  instanceId: string,
  input: PutAwayBody,
  ifMatch?: string,
): Promise<ItemWithEtag> {
  const { identifiers: scanned, ...fields } = input;
  const identifiers = receivedIdentifiers(scanned);
  return deps.db.transaction().execute(async (trx) => {
    const { row, instance } = await lockInstance(trx, actor, itemId, instanceId, ifMatch);
    // The vendor barcode scanned while putting it away: stored in the same submission (docs/scanning.md).
    if (identifiers) await setIdentifiersIn(trx, { instanceId, labId: row.lab_id, userId: actor.userId, now: nowIso() }, identifiers);
    return editInstanceIn(trx, deps, actor, row, instance, fields, { putAway: true });
  });
}
