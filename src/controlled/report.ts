import { stringify } from 'csv-stringify/sync';
import type { LabReconciliation, LedgerEntry, Reconciliation } from './schemas.js';

// The reconciliation as CSV (docs/controlled-substances.md): csv-stringify writes RFC 4180 with CRLF; text cells a
// spreadsheet would run as a formula (OWASP "CSV injection") get a leading apostrophe, numbers (a "-2" change) do not.

const NUMBER = /^-?\d+(\.\d+)?$/;
const FORMULA = /^'*[=+\-@\t\r]/;
const cell = (v: string | number | null | undefined): string => {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return !NUMBER.test(s) && FORMULA.test(s) ? `'${s}` : s;
};

const person = (p: { first_name: string; last_name: string } | null) => (p ? `${p.first_name} ${p.last_name}`.trim() : '');

export const ENTRY_HEADER = [
  'seq',
  'kind',
  'amount',
  'change',
  'balance',
  'recorded_by',
  'recorded_at',
  'witness',
  'witnessed_at',
  'from_location',
  'to_location',
  'note',
  'entry_id',
  'corrects_id',
];

const entryRow = (e: LedgerEntry) => [
  e.seq,
  e.kind,
  e.amount,
  e.change,
  e.balance,
  person(e.recorded_by),
  e.recorded_at,
  person(e.witness),
  e.witnessed_at,
  e.from_location?.name,
  e.to_location?.name,
  e.note,
  e.id,
  e.corrects_id,
];

/** A summary block (item, schedule, balance, count, difference), a blank line, then the entries waiting for a witness. */
export function reconciliationCsv(r: Reconciliation): string {
  const rows: (string | number | null | undefined)[][] = [
    ['item', 'schedule', 'unit_size', 'ledger_balance', 'recorded_quantity', 'counted', 'difference', 'unwitnessed_entries'],
    [r.item_name, r.schedule, r.unit_size, r.ledger_balance, r.recorded_quantity, r.counted, r.difference, r.unwitnessed.length],
    [],
    ENTRY_HEADER,
    ...r.unwitnessed.map(entryRow),
  ];
  return stringify(
    rows.map((row) => row.map(cell)),
    { record_delimiter: 'windows' },
  );
}

export const LAB_HEADER = [
  'item',
  'schedule',
  'unit_size',
  'ledger_balance',
  'recorded_quantity',
  'waiting_for_witness',
  'last_counted_at',
  'last_count',
  'difference',
  'stocktake_id',
  'item_id',
];

/** Every controlled item of a lab: one row each, with its balance, its last count and the difference. */
export function labReconciliationCsv(r: LabReconciliation): string {
  const rows = r.items.map((i) => [
    i.item_name,
    i.schedule,
    i.unit_size,
    i.ledger_balance,
    i.recorded_quantity,
    i.waiting_for_witness,
    i.last_count?.counted_at,
    i.last_count?.counted,
    i.difference,
    i.last_count?.stocktake_id,
    i.item_id,
  ]);
  return stringify(
    [LAB_HEADER, ...rows].map((row) => row.map(cell)),
    { record_delimiter: 'windows' },
  );
}
