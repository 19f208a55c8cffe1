import { renderTypeHazards } from '../hazards/render.js';
import { hazardSetOf, setHazardsIn } from '../hazards/repository.js';
import { classify, normalizeCodes } from '../hazards/rules.js';
import type { SetTypeHazardsBody, TypeHazards } from '../hazards/schemas.js';
import { requireLabManager } from '../labs/approval-settings.js';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import type { ServiceDeps } from '../shared/deps.js';
import { notFound } from '../shared/errors.js';
import { nowIso } from '../shared/time.js';
import { findVisibleType } from './repository.js';

// A type's GHS hazard statements (docs/hazards.md): every item of the type without statements of its own shows them.
// Read by anyone who sees the type; set by the lab's managers and org admins, who alone create, rename and delete
// types (src/types/service.ts). Not a field of the contract's type, so no type.updated: its resource is unchanged.

async function view(ex: Executor, typeId: string): Promise<TypeHazards> {
  const set = await hazardSetOf(ex, { kind: 'type', id: typeId });
  return renderTypeHazards(ex, typeId, classify(set?.codes ?? []), set);
}

/** GET /types/{id}/hazards. */
export async function getTypeHazards(deps: ServiceDeps, actor: Actor, typeId: string): Promise<TypeHazards> {
  const type = await findVisibleType(deps.db, actor, typeId);
  if (!type) throw notFound('type');
  return view(deps.db, type.id);
}

/** PUT /types/{id}/hazards: [] removes them (a type has nothing to inherit, so none and [] are the same). */
export async function setTypeHazards(deps: ServiceDeps, actor: Actor, typeId: string, body: SetTypeHazardsBody): Promise<TypeHazards> {
  const codes = normalizeCodes(body.hazard_statements);
  return deps.db.transaction().execute(async (trx) => {
    const type = await findVisibleType(trx, actor, typeId);
    if (!type) throw notFound('type');
    await requireLabManager(trx, actor, type.lab_id, "set a type's hazard statements");
    const before = await hazardSetOf(trx, { kind: 'type', id: type.id });
    if ((before?.codes ?? []).join(' ') !== codes.join(' '))
      await setHazardsIn(
        trx,
        { kind: 'type', id: type.id },
        { labId: type.lab_id, codes: codes.length > 0 ? codes : null, userId: actor.userId, now: nowIso() },
      );
    return view(trx, type.id);
  });
}
