import { controlAreaView, setControlArea, unmarkControlArea } from '../hazards/control-area.js';
import type { ControlArea, UpdateControlAreaBody } from '../hazards/control-area-schemas.js';
import type { Actor } from '../shared/actor.js';
import type { Db } from '../shared/db/database.js';
import { visibleLocation } from './service.js';

// A location marked a control area (docs/safety.md): this folder decides who sees the location (another tenant's
// id: 404), src/hazards/ keeps the marking and the limits.

export async function getControlArea(db: Db, actor: Actor, id: string): Promise<ControlArea> {
  return controlAreaView(db, actor, await visibleLocation(db, actor, id));
}

export async function putControlArea(db: Db, actor: Actor, id: string, body: UpdateControlAreaBody): Promise<ControlArea> {
  return db.transaction().execute(async (trx) => setControlArea(trx, actor, await visibleLocation(trx, actor, id), body));
}

export async function removeControlArea(db: Db, actor: Actor, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => unmarkControlArea(trx, actor, await visibleLocation(trx, actor, id)));
}
