import type { Executor } from '../shared/db/database.js';
import { AppError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import * as repo from './repository.js';
import { balanceAfter, type DraftEntry, entriesOf, type StockChange } from './rules.js';

// The ledger's writer. inventory/ calls recordControlledChanges with every history line it writes
// (src/inventory/history-rows.ts), in the same transaction and under the item's lock, so every path that changes an
// item's amount or its containers (the app, the contract's PUTs, receiving, a count's apply, archiving) writes
// its entries or, failing, nothing at all. Entries are only ever inserted (migration 0039's triggers refuse the rest).

export type { StockChange };

export interface LedgerAt {
  itemId: string;
  userId: string;
  now: string;
}

/** Appends drafts after the item's last entry, numbering them and carrying the running balance. */
export async function appendEntries(
  trx: Executor,
  labId: string,
  at: LedgerAt,
  drafts: (DraftEntry & { correctsId?: string | null })[],
): Promise<repo.LedgerRow[]> {
  const last = await repo.lastEntry(trx, at.itemId);
  let seq = last?.seq ?? 0;
  let balance = last?.balance ?? '0';
  const rows: repo.LedgerRow[] = [];
  for (const d of drafts) {
    let amount = d.amount;
    if (d.amountOf === 'instance' && d.instanceId) amount = (await repo.instanceQuantity(trx, d.instanceId)) ?? '0';
    if (d.amountOf === 'balance') amount = balance;
    balance = d.kind === 'opening' ? d.change : balanceAfter(balance, d.change);
    seq += 1;
    rows.push({
      id: newId(),
      lab_id: labId,
      item_id: at.itemId,
      seq,
      kind: d.kind,
      amount,
      change: d.change,
      balance,
      instance_id: d.instanceId,
      from_location_id: d.fromLocationId,
      to_location_id: d.toLocationId,
      corrects_id: d.correctsId ?? null,
      source: d.source,
      note: d.note,
      created_by: at.userId,
      created_at: at.now,
    });
  }
  await repo.insertEntries(trx, rows);
  return rows;
}

/**
 * The entries a change to an item makes, when the item is controlled (nothing otherwise). `controlled: false` says
 * the caller already knows it is not (the fast quantity write, src/inventory/quantity-fast.ts, keeps its statement
 * budget).
 */
export async function recordControlledChanges(
  trx: Executor,
  at: LedgerAt & { controlled?: boolean },
  changes: StockChange[],
): Promise<void> {
  if (at.controlled === false) return;
  const drafts = changes.flatMap(entriesOf);
  if (drafts.length === 0) return;
  const marked = await repo.findControlled(trx, at.itemId);
  if (!marked) return;
  await appendEntries(trx, marked.lab_id, at, drafts);
}

/** A controlled item is never deleted: its ledger would lose its subject. Dispose of it and unmark it first. */
export async function assertDeletable(trx: Executor, itemId: string): Promise<void> {
  if (await repo.findControlled(trx, itemId))
    throw new AppError(
      'conflict',
      'This item is a controlled substance: archive its containers (a witnessed disposal) and unmark it before deleting it',
    );
}
