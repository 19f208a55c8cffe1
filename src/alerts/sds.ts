import { activeLabMembers } from '../labs/members-repository.js';
import { forEachChunk } from '../shared/db/chunks.js';
import type { Db } from '../shared/db/database.js';
import { newId } from '../shared/ids.js';
import * as repo from './repository.js';
import { itemsOf, openSdsAlerts, sheetsAfter } from './sds-repository.js';

// Stale safety data sheets in the digest (docs/hazards.md "Safety data sheets", docs/alerts.md): an item whose newest
// sheet, its own or its type's, was revised SDS_REVIEW_YEARS ago or more has an open `sds_review` alert, and the
// members of its lab hear of it once in their digest, in words, with the item and the sheet's age. Renewed (a newer
// revision date, the sheet unmarked, the item gone), the alert is cleared and may fire again. No event: the
// contract's alert events know expiring and below_minimum only.

const BATCH = 500;

/** The day a sheet revised on `revisedOn` is due for review: the same date `years` later (29 February: 1 March). */
export function reviewDueOn(revisedOn: string, years: number): string {
  const d = new Date(`${revisedOn}T00:00:00Z`);
  return new Date(Date.UTC(d.getUTCFullYear() + years, d.getUTCMonth(), d.getUTCDate())).toISOString().slice(0, 10);
}

/** Whole years from `revisedOn` to `today` (both YYYY-MM-DD). */
export function ageInYears(revisedOn: string, today: string): number {
  const years = Number(today.slice(0, 4)) - Number(revisedOn.slice(0, 4));
  return today.slice(5) < revisedOn.slice(5) ? years - 1 : years;
}

export interface SdsReviewDetail {
  cause: 'sds_review';
  revised_on: string;
  file_name: string;
  review_years: number;
  fired_at: string;
}

interface Sheet {
  revisedOn: string;
  fileName: string;
}

const newer = (a: Sheet | undefined, b: Sheet | undefined) => (!a ? b : !b ? a : a.revisedOn >= b.revisedOn ? a : b);

/** Opens the alerts of items whose newest sheet is due, clears those renewed; returns how many fired and cleared. */
export async function sdsPass(db: Db, years: number, today: string, now: string): Promise<{ fired: number; cleared: number }> {
  const ofItem = new Map<string, Sheet>();
  const ofType = new Map<string, Sheet>();
  for (let cursor = ''; ; ) {
    const rows = await sheetsAfter(db, cursor, BATCH);
    if (rows.length === 0) break;
    cursor = rows.at(-1)!.id;
    for (const r of rows) {
      const sheet = { revisedOn: r.sds_revised_on!, fileName: r.file_name };
      if (r.item_id) ofItem.set(r.item_id, newer(ofItem.get(r.item_id), sheet)!);
      else if (r.type_id) ofType.set(r.type_id, newer(ofType.get(r.type_id), sheet)!);
    }
  }
  const due = (s: Sheet) => reviewDueOn(s.revisedOn, years) <= today;
  const staleTypes = [...ofType].filter(([, s]) => due(s)).map(([id]) => id);
  const candidates = await itemsOf(db, { itemIds: [...ofItem.keys()], typeIds: staleTypes });
  const stale = new Map<string, { item: (typeof candidates)[number]; sheet: Sheet }>();
  for (const item of candidates) {
    const sheet = newer(ofItem.get(item.id), item.type_id ? ofType.get(item.type_id) : undefined);
    if (sheet && due(sheet)) stale.set(item.id, { item, sheet });
  }

  return db.transaction().execute(async (trx) => {
    const open = await openSdsAlerts(trx);
    const renewed = open.filter((a) => !stale.has(a.item_id)).map((a) => a.id);
    await repo.clearAlerts(trx, renewed, now);
    const rows = [...stale.values()].map(({ item, sheet }) => ({
      id: newId(),
      item_id: item.id,
      lab_id: item.lab_id,
      organization_id: item.organization_id,
      cause: 'sds_review' as const,
      item_name: item.name,
      lab_name: item.lab_name,
      detail: JSON.stringify({
        cause: 'sds_review',
        revised_on: sheet.revisedOn,
        file_name: sheet.fileName,
        review_years: years,
        fired_at: now,
      } satisfies SdsReviewDetail),
      fired_at: now,
      cleared_at: null,
    }));
    const opened = new Set<string>();
    await forEachChunk(rows, async (chunk) => {
      for (const a of await repo.openAlerts(trx, chunk)) opened.add(a.id);
    });
    const mine = rows.filter((r) => opened.has(r.id));
    const members = await activeLabMembers(trx, [...new Set(mine.map((r) => r.lab_id))]);
    const notices = mine.flatMap((row) =>
      members.filter((m) => m.lab_id === row.lab_id).map((m) => ({ user_id: m.user_id, alert_id: row.id, created_at: now })),
    );
    await forEachChunk(notices, (chunk) => repo.insertNotices(trx, chunk));
    return { fired: mine.length, cleared: renewed.length };
  });
}
