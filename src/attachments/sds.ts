import { findVisibleItem } from '../inventory/repository.js';
import type { Actor } from '../shared/actor.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, fieldError, notFound } from '../shared/errors.js';
import { findVisibleAttachment } from './repository.js';
import { safetyDataSheetsOf, setSdsRevisedOn } from './sds-repository.js';
import type { SafetyDataSheet } from './sds-schemas.js';
import { downloadPath, ownerOfRow, requireWriter } from './service.js';

// Safety data sheets (docs/hazards.md): a document of an item or a type marked as its SDS, with the revision date
// printed on it, and whether it is older than SDS_REVIEW_YEARS (default 5, docs/decisions/0024-hazards.md).

const todayIso = (): string => new Date().toISOString().slice(0, 10);

/** The day a sheet revised on `revisedOn` is due for review: the same date, `years` later (29 February: 1 March). */
export function reviewDueOn(revisedOn: string, years: number): string {
  const d = new Date(`${revisedOn}T00:00:00Z`);
  const due = new Date(Date.UTC(d.getUTCFullYear() + years, d.getUTCMonth(), d.getUTCDate()));
  return due.toISOString().slice(0, 10);
}

const render = (
  row: { id: string; item_id: string | null; type_id: string | null; file_name: string; sds_revised_on: string | null },
  years: number,
  today: string,
): SafetyDataSheet => {
  const due = reviewDueOn(row.sds_revised_on!, years);
  return {
    attachment_id: row.id,
    owner_kind: row.item_id ? 'item' : 'type',
    owner_id: (row.item_id ?? row.type_id)!,
    file_name: row.file_name,
    revised_on: row.sds_revised_on!,
    review_due_on: due,
    review_years: years,
    overdue: due <= today,
    download_url: downloadPath(row.id),
  };
};

/** PUT /attachments/{id}/safety-data-sheet: marks (a date) or unmarks (null) a document of an item or a type. */
export async function markSafetyDataSheet(
  deps: ServiceDeps,
  actor: Actor,
  id: string,
  revisedOn: string | null,
): Promise<SafetyDataSheet | null> {
  const today = todayIso();
  if (revisedOn !== null && revisedOn > today)
    throw fieldError('revised_on', 'is in the future: give the revision date printed on the sheet');
  return deps.db.transaction().execute(async (trx) => {
    const row = await findVisibleAttachment(trx, actor, id, { lock: true });
    if (!row) throw notFound('attachment');
    const owner = ownerOfRow(row);
    if (owner.kind === 'instance')
      throw new AppError('validation_failed', 'a safety data sheet belongs to an item or a type, not to one container', {
        errors: [{ field: 'id', message: "a container's document cannot be its safety data sheet" }],
      });
    await requireWriter(trx, actor, owner);
    await setSdsRevisedOn(trx, row.id, revisedOn);
    return revisedOn === null ? null : render({ ...row, sds_revised_on: revisedOn }, deps.config.sdsReviewYears, today);
  });
}

/** GET /inventory-items/{id}/safety-data-sheets: the item's own and its type's, for anyone who sees the item. */
export async function itemSafetyDataSheets(deps: ServiceDeps, actor: Actor, itemId: string): Promise<SafetyDataSheet[]> {
  const item = await findVisibleItem(deps.db, actor, itemId);
  if (!item) throw notFound('inventory item');
  // An item's type is in its lab, which the caller sees.
  const rows = await safetyDataSheetsOf(deps.db, item.id, item.type_id);
  const today = todayIso();
  return rows.map((r) => render(r, deps.config.sdsReviewYears, today));
}
