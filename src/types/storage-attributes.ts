import { saveStorageAttributes, storageAttributesOf } from '../hazards/control-area-repository.js';
import { requireLabManager } from '../labs/approval-settings.js';
import type { Actor } from '../shared/actor.js';
import type { ServiceDeps } from '../shared/deps.js';
import { notFound } from '../shared/errors.js';
import { nowIso } from '../shared/time.js';
import { findVisibleType } from './repository.js';

// A type's storage attributes (docs/safety.md "Segregation"): acid or base, aqueous, what segregation needs beyond the
// GHS classes. Every item of the type without attributes of its own has them (src/inventory/placement.ts lookups).
// Read by anyone who sees the type; set by the lab's managers and org admins, as the type's hazard statements are.
// Not a field of the contract's type, so no type.updated.

export interface TypeStorageAttributes {
  corrosive: 'acid' | 'base' | null;
  aqueous: boolean;
}

/** GET /types/{id}/storage-attributes: the type's own, else none (corrosive null, not aqueous). */
export async function getTypeStorageAttributes(deps: ServiceDeps, actor: Actor, typeId: string): Promise<TypeStorageAttributes> {
  const type = await findVisibleType(deps.db, actor, typeId);
  if (!type) throw notFound('type');
  const [row] = await storageAttributesOf(deps.db, [], [type.id]);
  return { corrosive: row?.corrosive ?? null, aqueous: row?.aqueous === 1 };
}

/** PUT /types/{id}/storage-attributes: replaces the type's; an item's own still override them. */
export async function setTypeStorageAttributes(
  deps: ServiceDeps,
  actor: Actor,
  typeId: string,
  body: TypeStorageAttributes,
): Promise<TypeStorageAttributes> {
  return deps.db.transaction().execute(async (trx) => {
    const type = await findVisibleType(trx, actor, typeId);
    if (!type) throw notFound('type');
    await requireLabManager(trx, actor, type.lab_id, "set a type's storage attributes");
    await saveStorageAttributes(trx, {
      subject_kind: 'type',
      subject_id: type.id,
      corrosive: body.corrosive,
      aqueous: body.aqueous ? 1 : 0,
      updated_by: actor.userId,
      updated_at: nowIso(),
    });
    return { corrosive: body.corrosive, aqueous: body.aqueous };
  });
}
