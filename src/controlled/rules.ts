import type { LedgerKind } from '../shared/db/schema.js';
import { dec } from '../shared/decimal.js';

// What a change to a controlled item means for its ledger (docs/controlled-substances.md). No database here: the
// item's history lines (src/inventory/history-rows.ts) come in, ledger entries (without ids and balances) go out.

/** One line of an item's history, as inventory/ records it. */
export interface StockChange {
  field: string;
  old?: string | null;
  new?: string | null;
  note?: string | null;
  instanceId?: string | null;
  orderRequestId?: string | null;
  stocktakeSessionId?: string | null;
}

export interface DraftEntry {
  kind: LedgerKind;
  /** Never negative: how much the entry is about. */
  amount: string;
  /** Signed effect on the balance (0 for a move). */
  change: string;
  instanceId: string | null;
  fromLocationId: string | null;
  toLocationId: string | null;
  source: 'app' | 'receiving' | 'stocktake' | 'marking' | 'correction';
  note: string | null;
  /** A move whose amount is the instance's (or, in a legacy lab, the whole balance): filled in by the writer. */
  amountOf?: 'instance' | 'balance';
}

const sourceOf = (c: StockChange): 'app' | 'receiving' | 'stocktake' =>
  c.stocktakeSessionId ? 'stocktake' : c.orderRequestId ? 'receiving' : 'app';

function quantityEntry(c: StockChange, change: string): DraftEntry | null {
  const d = dec(change);
  if (d.isZero()) return null;
  const source = sourceOf(c);
  const kind: LedgerKind = source === 'stocktake' ? 'count' : source === 'receiving' || d.isPositive() ? 'receipt' : 'use';
  return {
    kind,
    amount: d.abs().toFixed(),
    change: d.toFixed(),
    instanceId: c.instanceId ?? null,
    fromLocationId: null,
    toLocationId: null,
    source,
    note: c.note ?? null,
  };
}

/** The ledger entries one history line makes; [] for a line that changes neither amount nor place. */
export function entriesOf(c: StockChange): DraftEntry[] {
  const zero = (x: string | null | undefined) => x ?? '0';
  switch (c.field) {
    case 'quantity':
    case 'instance.quantity': {
      const e = quantityEntry(
        c,
        dec(zero(c.new))
          .minus(dec(zero(c.old)))
          .toFixed(),
      );
      return e ? [e] : [];
    }
    case 'instance.added':
    case 'received': {
      const e = quantityEntry(c, zero(c.new));
      return e ? [{ ...e, kind: e.kind === 'use' ? 'receipt' : e.kind }] : [];
    }
    case 'instance.archived': {
      const amount = dec(zero(c.old));
      return [
        {
          kind: 'disposal',
          amount: amount.toFixed(),
          change: amount.negated().toFixed(),
          instanceId: c.instanceId ?? null,
          fromLocationId: null,
          toLocationId: null,
          source: sourceOf(c),
          note: c.note ?? null,
        },
      ];
    }
    case 'instance.location_id':
      return [
        {
          kind: 'move',
          amount: '0',
          change: '0',
          instanceId: c.instanceId ?? null,
          fromLocationId: c.old ?? null,
          toLocationId: c.new ?? null,
          source: sourceOf(c),
          note: c.note ?? null,
          amountOf: 'instance',
        },
      ];
    case 'location':
    case 'sublocation':
      // A legacy lab's item is its one container: its place is two names, said in the note.
      return [
        {
          kind: 'move',
          amount: '0',
          change: '0',
          instanceId: null,
          fromLocationId: null,
          toLocationId: null,
          source: sourceOf(c),
          note: [`${c.field === 'location' ? 'Location' : 'Sublocation'}: ${c.old ?? 'none'} → ${c.new ?? 'none'}`, c.note]
            .filter(Boolean)
            .join('. '),
          amountOf: 'balance',
        },
      ];
    default:
      return [];
  }
}

/** The balance after a change; never below zero in the record (a correction that would is refused before). */
export const balanceAfter = (before: string, change: string): string => dec(before).plus(dec(change)).toFixed();
