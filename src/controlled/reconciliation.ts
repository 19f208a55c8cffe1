import { findVisibleLab } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import type { Executor } from '../shared/db/database.js';
import { dec, sumDecimals } from '../shared/decimal.js';
import type { ServiceDeps } from '../shared/deps.js';
import { fieldError, notFound } from '../shared/errors.js';
import { nowIso } from '../shared/time.js';
import * as repo from './repository.js';
import type {
  LabReconciliation,
  LabReconciliationItem,
  LedgerEntry,
  Reconciliation,
  ReconciliationPdfQuery,
  ReconciliationQuery,
} from './schemas.js';
import { notControlled, recordedQuantity, render, visibleControlled } from './service.js';

// Reconciliation (docs/controlled-substances.md "Reconciliation"): one item's ledger balance against a count, the
// same over a period for the registrant's records (its PDF), and every controlled item of a lab against its last count.

/** What a count session counted of an item: its counted containers (a ticked one as recorded). */
async function countedIn(ex: Executor, sessionId: string, itemId: string, labId: string): Promise<string> {
  const lines = await repo.countedInSession(ex, sessionId, itemId);
  if (lines.length > 0 && lines[0]!.lab_id !== labId) throw notFound('stocktake');
  if (lines.length === 0) throw fieldError('stocktake_id', 'that count did not count this item');
  return sumDecimals(lines.map((l) => l.quantity ?? l.recorded_quantity));
}

/**
 * GET /controlled-items/{itemId}/reconciliation: the ledger's balance against a count (entered, or what a count
 * session counted of the item), the inventory's recorded amount, and the entries no one has witnessed.
 */
export async function reconcile(deps: ServiceDeps, actor: Actor, itemId: string, q: ReconciliationQuery): Promise<Reconciliation> {
  if (q.counted !== undefined && q.stocktake_id !== undefined) throw fieldError('counted', 'give either a count or a stocktake, not both');
  const { item, marked } = await visibleControlled(deps.db, actor, itemId);
  const last = await repo.lastEntry(deps.db, item.id);
  // An item no longer controlled keeps its ledger, and a registrant its records: its reconciliation (and the PDF
  // of every entry) stays available, its schedule said as the closing entry says it. Never controlled: 404.
  const schedule = marked?.schedule ?? formerSchedule(last);
  if (schedule === undefined) throw notControlled();
  const counted = q.stocktake_id !== undefined ? await countedIn(deps.db, q.stocktake_id, item.id, item.lab_id) : (q.counted ?? null);
  const balance = last?.balance ?? '0';
  const unwitnessed = await repo.unwitnessedOf(deps.db, item.id);
  return {
    item_id: item.id,
    item_name: item.name,
    schedule,
    unit_size: item.unit_size,
    ledger_balance: balance,
    recorded_quantity: await recordedQuantity(deps.db, item),
    counted,
    counted_by: q.stocktake_id !== undefined ? 'stocktake' : counted !== null ? 'count' : null,
    difference: counted === null ? null : dec(counted).minus(dec(balance)).toFixed(),
    unwitnessed: await render(deps.db, unwitnessed, new Map([[item.id, item.unit_size]])),
  };
}

/** "No longer controlled (was DEA Schedule II)": the words of the closing entry that ended an item's ledger (src/controlled/service.ts unmarkControlled). */
function formerSchedule(last: { kind: string; note: string | null } | undefined): string | undefined {
  if (last?.kind !== 'closing') return undefined;
  const end = last.note?.indexOf('): ') ?? -1;
  return end > 0 ? last.note!.slice(0, end + 1) : 'No longer controlled';
}

export interface PeriodReport {
  reconciliation: Reconciliation;
  lab: { id: string; name: string };
  /** The days covered (UTC, both included). */
  from: string;
  to: string;
  /** The balance before the period's first day. */
  opening_balance: string;
  /** The balance after the period's last entry. */
  closing_balance: string;
  entries: LedgerEntry[];
  generated_at: string;
}

const dayAfter = (day: string): string => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();

/**
 * GET /controlled-items/{itemId}/reconciliation.pdf: the reconciliation with the period's entries: the balance the
 * period opened with, every entry in it with its running balance and witness, the count and the difference.
 */
export async function periodReport(deps: ServiceDeps, actor: Actor, itemId: string, q: ReconciliationPdfQuery): Promise<PeriodReport> {
  const { from: qFrom, to: qTo, ...count } = q;
  const reconciliation = await reconcile(deps, actor, itemId, count);
  const now = nowIso();
  const first = await repo.firstEntry(deps.db, itemId);
  const from = qFrom ?? (first?.created_at ?? now).slice(0, 10);
  const to = qTo ?? now.slice(0, 10);
  if (to < from) throw fieldError('to', 'the period ends before it starts');
  const start = `${from}T00:00:00.000Z`;
  const rows = await repo.entriesBetween(deps.db, itemId, start, dayAfter(to));
  const opening = (await repo.lastEntryBefore(deps.db, itemId, start))?.balance ?? '0';
  const entries = await render(deps.db, rows, new Map([[itemId, reconciliation.unit_size]]));
  const item = (await repo.findVisibleItem(deps.db, actor, itemId))!;
  const lab = (await repo.findLab(deps.db, item.lab_id))!;
  return {
    reconciliation,
    lab: { id: lab.id, name: lab.name },
    from,
    to,
    opening_balance: opening,
    closing_balance: entries.at(-1)?.balance ?? opening,
    entries,
    generated_at: now,
  };
}

/**
 * GET /labs/{labId}/controlled-reconciliation: every controlled item of the lab with its ledger balance, the amount
 * recorded, its last count (the latest count session that counted it) and the difference. 404 for a lab not seen.
 */
export async function labReconciliation(deps: ServiceDeps, actor: Actor, labId: string): Promise<LabReconciliation> {
  const lab = await findVisibleLab(deps.db, actor, labId);
  if (!lab) throw notFound('lab');
  const items: LabReconciliationItem[] = [];
  for (const c of await repo.controlledOfLab(deps.db, labId)) {
    const balance = (await repo.lastEntry(deps.db, c.item_id))?.balance ?? '0';
    const session = await repo.lastCountSession(deps.db, c.item_id);
    const counted = session ? await countedIn(deps.db, session.session_id, c.item_id, labId) : null;
    items.push({
      item_id: c.item_id,
      item_name: c.name,
      schedule: c.schedule,
      unit_size: c.unit_size,
      ledger_balance: balance,
      recorded_quantity: await recordedQuantity(deps.db, c),
      waiting_for_witness: (await repo.unwitnessedOf(deps.db, c.item_id)).length,
      last_count: session && counted !== null ? { stocktake_id: session.session_id, counted_at: session.counted_at, counted } : null,
      difference: counted === null ? null : dec(counted).minus(dec(balance)).toFixed(),
    });
  }
  return { lab: { id: lab.id, name: lab.name }, generated_at: nowIso(), items };
}
