import { effectiveLabRole, requireLabManager } from '../labs/approval-settings.js';
import { findVisibleLab } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import type { Db, Executor } from '../shared/db/database.js';
import type { SafetyMode } from '../shared/db/schema.js';
import { notFound } from '../shared/errors.js';
import { nowIso } from '../shared/time.js';
import { findSafetySettings, saveSafetySettings } from './settings-repository.js';
import type { LabSafetySettings, UpdateLabSafetySettingsBody } from './settings-schemas.js';

// A lab's safety settings (docs/safety.md): segregation and control-area limits each warn (the default, as
// docs/product.md §14 says) or block. Anyone who sees the lab reads them; org admins and lab managers set them.

export interface SafetyModes {
  segregation: SafetyMode;
  limits: SafetyMode;
}

export async function safetyModes(ex: Executor, labId: string): Promise<SafetyModes> {
  const row = await findSafetySettings(ex, labId);
  return { segregation: row?.segregation ?? 'warn', limits: row?.limits ?? 'warn' };
}

async function render(ex: Executor, actor: Actor, labId: string): Promise<LabSafetySettings> {
  const modes = await safetyModes(ex, labId);
  return { lab_id: labId, ...modes, can_edit: (await effectiveLabRole(ex, actor, labId)) === 'manager' };
}

export async function getSafetySettings(db: Db, actor: Actor, labId: string): Promise<LabSafetySettings> {
  const lab = await findVisibleLab(db, actor, labId);
  if (!lab) throw notFound('lab');
  return render(db, actor, lab.id);
}

export async function updateSafetySettings(
  db: Db,
  actor: Actor,
  labId: string,
  input: UpdateLabSafetySettingsBody,
): Promise<LabSafetySettings> {
  return db.transaction().execute(async (trx) => {
    const lab = await findVisibleLab(trx, actor, labId);
    if (!lab) throw notFound('lab');
    await requireLabManager(trx, actor, lab.id, 'change its safety settings');
    await saveSafetySettings(trx, {
      lab_id: lab.id,
      segregation: input.segregation,
      limits: input.limits,
      updated_by: actor.userId,
      updated_at: nowIso(),
    });
    return render(trx, actor, lab.id);
  });
}
