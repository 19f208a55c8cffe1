import { controlAreaView, setControlArea, unmarkControlArea } from '../hazards/control-area.js';
import type { ControlArea, UpdateControlAreaBody } from '../hazards/control-area-schemas.js';
import { findVisibleLab } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import type { Db, Executor } from '../shared/db/database.js';
import { notFound } from '../shared/errors.js';
import { findLocation } from './repository.js';

// A location marked a control area (docs/safety.md): this folder decides who sees the location (another tenant's
// id: 404), src/hazards/ keeps the marking and the limits.

export async function visibleLocation(ex: Executor, actor: Actor, id: string) {
  const row = await findLocation(ex, id);
  if (!row || !(await findVisibleLab(ex, actor, row.lab_id))) throw notFound('location');
  return row;
}

export async function getControlArea(db: Db, actor: Actor, id: string): Promise<ControlArea> {
  return controlAreaView(db, actor, await visibleLocation(db, actor, id));
}

export async function putControlArea(db: Db, actor: Actor, id: string, body: UpdateControlAreaBody): Promise<ControlArea> {
  return db.transaction().execute(async (trx) => setControlArea(trx, actor, await visibleLocation(trx, actor, id), body));
}

export async function removeControlArea(db: Db, actor: Actor, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => unmarkControlArea(trx, actor, await visibleLocation(trx, actor, id)));
}
