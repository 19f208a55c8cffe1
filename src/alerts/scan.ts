import { emitEvents } from '../events/outbox.js';
import { alertCandidates, itemRowsByIds } from '../inventory/alert-repository.js';
import { renderItems } from '../inventory/render.js';
import type { ItemRow } from '../inventory/repository.js';
import type { InventoryItem } from '../inventory/schemas.js';
import { activeLabMembers } from '../labs/members-repository.js';
import type { Config } from '../shared/config.js';
import { forEachChunk } from '../shared/db/chunks.js';
import type { Db } from '../shared/db/database.js';
import { newId } from '../shared/ids.js';
import * as repo from './repository.js';
import { ALERT_EVENT_OF, type AlertCondition, conditionsOf, latestHorizon, REMINDERS, utcDate } from './rules.js';
import { sdsPass } from './sds.js';

// The scan (docs/alerts.md): clears the open alerts whose condition no longer holds, then opens an alert for each
// item and cause in a condition without one, writing its event and its digest notices in the same transaction.
// Each pass goes in batches of items with a fixed number of statements per batch. A scan that dies before a commit
// loses nothing: the next one finds the same conditions (at least once); the unique open alert per item and cause
// keeps several workers from firing one twice (src/alerts/repository.ts openAlerts).

const BATCH = 200;

export interface ScanDeps {
  db: Db;
  config: Pick<Config, 'appUrl' | 'eventVendor' | 'eventSource' | 'webhookRequireVerification'> & Partial<Pick<Config, 'sdsReviewYears'>>;
}

export interface ScanResult {
  fired: number;
  cleared: number;
}

const renderedWithMinimum = async (deps: ScanDeps, rows: ItemRow[]): Promise<{ item: InventoryItem; minimum: string | null }[]> => {
  const items = await renderItems(deps.db, deps.config.appUrl, rows);
  return items.map((item, i) => ({ item, minimum: rows[i]!.minimum_quantity }));
};

export async function scanAlerts(deps: ScanDeps, now = new Date()): Promise<ScanResult> {
  const today = utcDate(now);
  const cleared = await clearPass(deps, today, now.toISOString());
  const fired = await firePass(deps, today, now.toISOString());
  // Stale safety data sheets (src/alerts/sds.ts): their own pass, digest only.
  const sds = await sdsPass(deps.db, deps.config.sdsReviewYears ?? 5, today, now.toISOString());
  return { fired: fired + sds.fired, cleared: cleared + sds.cleared };
}

/** Open alerts whose item is gone or no longer in that condition are cleared, so they may fire again. */
async function clearPass(deps: ScanDeps, today: string, now: string): Promise<number> {
  let cursor = '';
  let cleared = 0;
  for (;;) {
    const open = await repo.openAlertsAfter(deps.db, cursor, BATCH);
    if (open.length === 0) return cleared;
    cursor = open.at(-1)!.id;
    const rendered = await renderedWithMinimum(
      deps,
      await itemRowsByIds(
        deps.db,
        open.map((a) => a.item_id),
      ),
    );
    const holding = new Set(
      rendered.flatMap(({ item, minimum }) => conditionsOf(item, minimum, today).map((c) => `${item.id}/${c.cause}`)),
    );
    const gone = open.filter((a) => a.cause !== 'sds_review' && !holding.has(`${a.item_id}/${a.cause}`)).map((a) => a.id);
    await repo.clearAlerts(deps.db, gone, now);
    cleared += gone.length;
  }
}

async function firePass(deps: ScanDeps, today: string, now: string): Promise<number> {
  let cursor = '';
  let fired = 0;
  const horizon = latestHorizon(today);
  for (;;) {
    const rows = await alertCandidates(deps.db, cursor, BATCH, REMINDERS, horizon);
    if (rows.length === 0) return fired;
    cursor = rows.at(-1)!.id;
    const found: { item: InventoryItem; condition: AlertCondition }[] = (await renderedWithMinimum(deps, rows)).flatMap(
      ({ item, minimum }) => conditionsOf(item, minimum, today).map((condition) => ({ item, condition })),
    );
    if (found.length > 0) fired += await fire(deps, found, now);
  }
}

async function fire(deps: ScanDeps, found: { item: InventoryItem; condition: AlertCondition }[], now: string): Promise<number> {
  const rows = found.map(({ item, condition }) => ({
    id: newId(),
    item_id: item.id,
    lab_id: item.lab.id,
    organization_id: item.lab.organization.id,
    cause: condition.cause,
    item_name: item.name,
    lab_name: item.lab.name,
    detail: JSON.stringify({ ...condition.alert, fired_at: now }),
    fired_at: now,
    cleared_at: null,
  }));
  return deps.db.transaction().execute(async (trx) => {
    const opened = new Set((await repo.openAlerts(trx, rows)).map((a) => a.id));
    if (opened.size === 0) return 0;
    const mine = rows.map((row, i) => ({ row, ...found[i]! })).filter(({ row }) => opened.has(row.id));
    await emitEvents(
      trx,
      deps.config,
      mine.map(({ item, condition, row }) => ({
        type: ALERT_EVENT_OF[condition.cause],
        organizationId: row.organization_id,
        labId: row.lab_id,
        resource: item,
        extra: { alert: { ...condition.alert, fired_at: now } },
      })),
    );
    // Who hears of it in their digest: the lab's members now; the digest checks again when it goes out.
    const members = await activeLabMembers(trx, [...new Set(mine.map((m) => m.row.lab_id))]);
    const notices = mine.flatMap(({ row }) =>
      members.filter((m) => m.lab_id === row.lab_id).map((m) => ({ user_id: m.user_id, alert_id: row.id, created_at: now })),
    );
    await forEachChunk(notices, (chunk) => repo.insertNotices(trx, chunk));
    return mine.length;
  });
}
