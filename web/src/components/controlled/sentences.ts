import type { components } from '@labstock/client';

// A controlled substance's ledger as sentences (docs/controlled-substances.md; docs/web.md, "Their words"):
// "Ana Lopez used 2 mL on 27 Nov, witnessed by Ben Ortiz". No field names or enum words reach the page.

export type LedgerEntry = components['schemas']['ControlledLedgerEntry'];
export type ControlledItem = components['schemas']['ControlledItem'];
export type Reconciliation = components['schemas']['ControlledReconciliation'];

/** An amount in the item's units: "2 mL" for a 1 mL unit size, "2 × 5 mL" for another, "2" without one. */
export function amountWords(amount: string, unitSize: string | null | undefined): string {
  const size = unitSize?.trim();
  if (!size) return amount;
  const one = /^1\s*([^\d\s].*)$/.exec(size);
  return one ? `${amount} ${one[1]}` : `${amount} × ${size}`;
}

export const personName = (p: { first_name: string; last_name: string } | null | undefined): string =>
  p ? `${p.first_name} ${p.last_name}`.trim() : 'Someone';

export const dayWords = (iso: string): string => new Date(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'short' });

/** What the entry says happened, without who or when ("used 2 mL", "moved 5 mL from Safe to Bench"). */
export function whatHappened(e: LedgerEntry): string {
  const amt = amountWords(e.amount, e.unit_size);
  switch (e.kind) {
    case 'opening':
      return `opened the ledger with ${amt} on hand`;
    case 'use':
      return `used ${amt}`;
    case 'receipt':
      return e.source === 'receiving' ? `received ${amt} from an order` : `added ${amt}`;
    case 'move':
      return `moved ${amt}${e.from_location ? ` from ${e.from_location.name ?? 'a removed location'}` : ''}${e.to_location ? ` to ${e.to_location.name ?? 'a removed location'}` : ''}`;
    case 'disposal':
      return `disposed of ${amt}`;
    case 'count':
      return e.change.startsWith('-') ? `counted ${amt} less than recorded` : `counted ${amt} more than recorded`;
    case 'correction':
      return e.change === '0'
        ? 'corrected an earlier entry'
        : `corrected an earlier entry by ${e.change.startsWith('-') ? 'taking off' : 'adding'} ${amt}`;
    case 'closing':
      return 'closed the ledger: no longer a controlled substance';
    default:
      return 'made an entry';
  }
}

/** The whole sentence: who, what, when, and who witnessed it (or that it waits for a witness). */
export function entrySentence(e: LedgerEntry): string {
  const witnessed = e.witness ? `, witnessed by ${personName(e.witness)}` : ', waiting for a witness';
  return `${personName(e.recorded_by)} ${whatHappened(e)} on ${dayWords(e.recorded_at)}${witnessed}.`;
}
