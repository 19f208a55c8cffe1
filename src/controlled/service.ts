import { userSummaries } from '../accounts/repository.js';
import type { UserSummary } from '../accounts/schemas.js';
import { requireLabManager } from '../labs/approval-settings.js';
import { findVisibleLab } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import { type Executor, isUniqueViolation } from '../shared/db/database.js';
import { dec, sumDecimals } from '../shared/decimal.js';
import type { ServiceDeps } from '../shared/deps.js';
import { AppError, fieldError, notFound } from '../shared/errors.js';
import type { Page } from '../shared/pagination.js';
import { nowIso } from '../shared/time.js';
import { appendEntries } from './ledger.js';
import * as repo from './repository.js';
import type { ControlledItem, CorrectionBody, LedgerEntry, MarkBody, UnmarkBody } from './schemas.js';

// Controlled substances (docs/controlled-substances.md, docs/product.md §14): marking an item, its ledger, the
// second person who witnesses each entry, corrections and the reconciliation against a count. The entries of
// changes to the item itself are written by ledger.ts, called from inventory/.

export const notControlled = () => notFound('controlled item');

export async function render(ex: Executor, rows: repo.LedgerView[], unitSizes: Map<string, string | null>): Promise<LedgerEntry[]> {
  const people = await userSummaries(
    ex,
    rows.flatMap((r) => (r.witnessed_by ? [r.created_by, r.witnessed_by] : [r.created_by])),
  );
  const place = (id: string | null, name: string | null) => (id ? { id, name } : null);
  return rows.map((r) => ({
    id: r.id,
    item_id: r.item_id,
    item_name: r.item_name,
    lab_id: r.lab_id,
    seq: r.seq,
    kind: r.kind,
    amount: r.amount,
    change: r.change,
    balance: r.balance,
    unit_size: unitSizes.get(r.item_id) ?? null,
    instance_id: r.instance_id,
    from_location: place(r.from_location_id, r.from_location_name),
    to_location: place(r.to_location_id, r.to_location_name),
    corrects_id: r.corrects_id,
    source: r.source,
    note: r.note,
    recorded_by: people.get(r.created_by)!,
    recorded_at: r.created_at,
    witness: r.witnessed_by ? (people.get(r.witnessed_by) as UserSummary) : null,
    witnessed_at: r.witnessed_at,
  }));
}

/** The item's amount as the inventory records it: its active containers' in a lab that uses them. */
export async function recordedQuantity(ex: Executor, item: { id: string; lab_id: string; quantity: string }): Promise<string> {
  const lab = (await repo.findLab(ex, item.lab_id))!;
  if (lab.uses_instances !== 1) return item.quantity;
  return sumDecimals((await repo.activeInstanceQuantities(ex, item.id)).map((i) => i.quantity));
}

async function viewOf(ex: Executor, item: { id: string; name: string; unit_size: string | null }): Promise<ControlledItem> {
  const marked = (await repo.findControlled(ex, item.id))!;
  const last = await repo.lastEntry(ex, item.id);
  const waiting = await repo.unwitnessedOf(ex, item.id);
  const people = await userSummaries(ex, [marked.marked_by]);
  return {
    item_id: item.id,
    item_name: item.name,
    lab_id: marked.lab_id,
    schedule: marked.schedule,
    unit_size: item.unit_size,
    balance: last?.balance ?? '0',
    waiting_for_witness: waiting.length,
    marked_by: people.get(marked.marked_by)!,
    marked_at: marked.marked_at,
  };
}

export async function visibleControlled(ex: Executor, actor: Actor, itemId: string, opts: { lock?: boolean } = {}) {
  const item = await repo.findVisibleItem(ex, actor, itemId, opts);
  if (!item) throw notFound('inventory item');
  const marked = await repo.findControlled(ex, item.id);
  return { item, marked };
}

/** GET /controlled-items/{itemId}: 404 for an item the caller does not see or that is not controlled. */
export async function getControlled(deps: ServiceDeps, actor: Actor, itemId: string): Promise<ControlledItem> {
  const { item, marked } = await visibleControlled(deps.db, actor, itemId);
  if (!marked) throw notControlled();
  return viewOf(deps.db, item);
}

/** A lab named in a list's filter must be one the caller sees: 404 otherwise, as everywhere. */
export async function checkLab(ex: Executor, actor: Actor, labId: string | undefined): Promise<void> {
  if (labId !== undefined && !(await findVisibleLab(ex, actor, labId))) throw notFound('lab');
}

/** GET /controlled-items: the controlled items of the labs the caller sees. */
export async function listControlled(deps: ServiceDeps, actor: Actor, filter: { labId?: string; itemId?: string }, page: Page) {
  await checkLab(deps.db, actor, filter.labId);
  const { total, rows } = await repo.pageControlled(deps.db, actor, filter, page);
  const items: ControlledItem[] = [];
  for (const r of rows) {
    const item = (await repo.findVisibleItem(deps.db, actor, r.item_id))!;
    items.push(await viewOf(deps.db, item));
  }
  return { total, items };
}

/**
 * PUT /controlled-items/{itemId}: marks the item controlled with its schedule (201, an opening entry with the amount
 * the inventory records), or changes the schedule of a controlled one (200). Org admins and the lab's managers.
 */
export async function markControlled(deps: ServiceDeps, actor: Actor, itemId: string, body: MarkBody) {
  const schedule = body.schedule.trim();
  return deps.db.transaction().execute(async (trx) => {
    const { item, marked } = await visibleControlled(trx, actor, itemId, { lock: true });
    await requireLabManager(trx, actor, item.lab_id, 'mark an item as a controlled substance');
    const now = nowIso();
    if (marked) {
      if (marked.schedule !== schedule) await repo.updateSchedule(trx, item.id, schedule);
      return { created: false, view: await viewOf(trx, item) };
    }
    await repo.insertControlled(trx, { item_id: item.id, lab_id: item.lab_id, schedule, marked_by: actor.userId, marked_at: now });
    const balance = await recordedQuantity(trx, item);
    await appendEntries(trx, item.lab_id, { itemId: item.id, userId: actor.userId, now }, [
      {
        kind: 'opening',
        amount: balance,
        change: balance,
        instanceId: null,
        fromLocationId: null,
        toLocationId: null,
        source: 'marking',
        note: `Marked controlled: ${schedule}`,
      },
    ]);
    return { created: true, view: await viewOf(trx, item) };
  });
}

/**
 * POST /controlled-items/{itemId}/unmark: no longer controlled; a closing entry with the reason ends its ledger,
 * which stays readable. Org admins and the lab's managers.
 */
export async function unmarkControlled(deps: ServiceDeps, actor: Actor, itemId: string, body: UnmarkBody): Promise<LedgerEntry> {
  return deps.db.transaction().execute(async (trx) => {
    const { item, marked } = await visibleControlled(trx, actor, itemId, { lock: true });
    if (!marked) throw notControlled();
    await requireLabManager(trx, actor, item.lab_id, 'unmark a controlled substance');
    const last = await repo.lastEntry(trx, item.id);
    const [row] = await appendEntries(trx, item.lab_id, { itemId: item.id, userId: actor.userId, now: nowIso() }, [
      {
        kind: 'closing',
        amount: last?.balance ?? '0',
        change: '0',
        instanceId: null,
        fromLocationId: null,
        toLocationId: null,
        source: 'marking',
        note: `No longer controlled (was ${marked.schedule}): ${body.reason.trim()}`,
      },
    ]);
    await repo.deleteControlled(trx, item.id);
    const view = (await repo.findVisibleEntry(trx, actor, row!.id))!;
    return (await render(trx, [view], new Map([[item.id, item.unit_size]])))[0]!;
  });
}

/** GET /controlled-items/{itemId}/ledger: oldest first; the ledger of an unmarked item stays readable. */
export async function listLedger(deps: ServiceDeps, actor: Actor, itemId: string, page: Page) {
  const item = await repo.findVisibleItem(deps.db, actor, itemId);
  if (!item) throw notFound('inventory item');
  const { total, rows } = await repo.pageLedger(deps.db, item.id, page);
  return { total, entries: await render(deps.db, rows, new Map([[item.id, item.unit_size]])) };
}

/** GET /controlled-entries?waiting: entries no second person has witnessed, in the labs the caller sees. */
export async function listWaiting(deps: ServiceDeps, actor: Actor, labId: string | undefined, page: Page) {
  await checkLab(deps.db, actor, labId);
  const { total, rows } = await repo.pageWaiting(deps.db, actor, labId, page);
  const sizes = new Map<string, string | null>();
  for (const id of new Set(rows.map((r) => r.item_id))) sizes.set(id, (await repo.findVisibleItem(deps.db, actor, id))?.unit_size ?? null);
  return { total, entries: await render(deps.db, rows, sizes) };
}

/**
 * POST /controlled-entries/{entryId}/witness: the caller, in their own session, confirms the entry. The witness is
 * another person who sees the lab (a member of it or an admin of its organization; anyone else: 404); the person
 * who made the entry cannot witness it (403 self_witness); an entry is witnessed once (409).
 */
export async function witnessEntry(deps: ServiceDeps, actor: Actor, entryId: string): Promise<LedgerEntry> {
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const entry = await repo.findVisibleEntry(trx, actor, entryId);
      if (!entry) throw notFound('ledger entry');
      if (entry.created_by === actor.userId)
        throw new AppError('self_witness', 'You made this entry: another person of the lab has to witness it');
      if (entry.witnessed_by) throw alreadyWitnessed();
      await repo.insertWitness(trx, { entry_id: entry.id, witnessed_by: actor.userId, witnessed_at: nowIso() });
      const item = await repo.findVisibleItem(trx, actor, entry.item_id);
      const now = (await repo.findVisibleEntry(trx, actor, entryId))!;
      return (await render(trx, [now], new Map([[entry.item_id, item?.unit_size ?? null]])))[0]!;
    });
  } catch (err) {
    // Two witnesses at once: the second insert meets the first's row.
    if (isUniqueViolation(err)) throw alreadyWitnessed();
    throw err;
  }
}

const alreadyWitnessed = () => new AppError('conflict', 'Someone has already witnessed this entry');

/**
 * POST /controlled-items/{itemId}/corrections: a new entry that corrects an earlier one of the same item (which stays
 * as it was), adding `change` to the balance. It waits for a witness like every entry. Never below zero.
 */
export async function addCorrection(deps: ServiceDeps, actor: Actor, itemId: string, body: CorrectionBody): Promise<LedgerEntry> {
  return deps.db.transaction().execute(async (trx) => {
    const { item, marked } = await visibleControlled(trx, actor, itemId, { lock: true });
    if (!marked) throw notControlled();
    const corrected = await repo.findVisibleEntry(trx, actor, body.corrects_entry_id);
    if (!corrected || corrected.item_id !== item.id) throw fieldError('corrects_entry_id', 'no entry of this item has that id');
    const last = await repo.lastEntry(trx, item.id);
    const change = dec(body.change);
    if (
      dec(last?.balance ?? '0')
        .plus(change)
        .isNegative()
    )
      throw fieldError('change', `the balance is ${last?.balance ?? '0'}: a correction cannot take it below zero`);
    const [row] = await appendEntries(trx, item.lab_id, { itemId: item.id, userId: actor.userId, now: nowIso() }, [
      {
        kind: 'correction',
        amount: change.abs().toFixed(),
        change: change.toFixed(),
        instanceId: corrected.instance_id,
        fromLocationId: null,
        toLocationId: null,
        source: 'correction',
        note: body.note.trim(),
        correctsId: corrected.id,
      },
    ]);
    const view = (await repo.findVisibleEntry(trx, actor, row!.id))!;
    return (await render(trx, [view], new Map([[item.id, item.unit_size]])))[0]!;
  });
}
