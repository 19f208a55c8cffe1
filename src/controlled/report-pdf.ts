import { pdfWriter } from '../shared/pdf-writer.js';
import type { PeriodReport } from './reconciliation.js';
import type { LabReconciliation, LedgerEntry } from './schemas.js';

// The reconciliation as PDF for the registrant's records (docs/controlled-substances.md "Reconciliation"): A4, in the
// words a person reads (no field names), DejaVu Sans Condensed through src/shared/pdf-writer.ts.

const KIND_WORDS: Record<LedgerEntry['kind'], string> = {
  opening: 'Opening',
  use: 'Use',
  receipt: 'Receipt',
  move: 'Move',
  disposal: 'Disposal',
  count: 'Count',
  correction: 'Correction',
  closing: 'Closing',
};

const person = (p: { first_name: string; last_name: string } | null) => (p ? `${p.first_name} ${p.last_name}`.trim() : '');
const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')}`;
const units = (unitSize: string | null) => (unitSize ? ` (units of ${unitSize})` : '');
const signed = (change: string) => (change.startsWith('-') || change === '0' ? change : `+${change}`);

function whatOf(e: LedgerEntry): string {
  const moved =
    e.kind === 'move'
      ? ` of ${e.amount}, ${e.from_location?.name ?? 'no location'} → ${e.to_location?.name ?? 'no location'}`
      : e.corrects_id
        ? ' (corrects an entry)'
        : '';
  return `${KIND_WORDS[e.kind] ?? e.kind}${moved}${e.note ? `: ${e.note}` : ''}`;
}

const SIGNATURES = ['Counted by (name, signature)', 'Witness (name, signature)', 'Registrant (name, signature)'];

/** One item over a period: the opening balance, every entry with its running balance, the count, the difference. */
export async function periodPdf(r: PeriodReport): Promise<Uint8Array> {
  const rec = r.reconciliation;
  const w = await pdfWriter(`Controlled-substance reconciliation: ${rec.item_name}`);
  w.line(`Controlled-substance reconciliation: ${rec.item_name}`, { size: 15, bold: true, gap: 6 });
  w.line(`${r.lab.name} · ${rec.schedule}${units(rec.unit_size)}`, { size: 10 });
  w.line(`Period ${r.from} to ${r.to} (UTC) · made ${when(r.generated_at)} UTC`, { size: 10, gap: 10 });
  w.line(`Opening balance on ${r.from}: ${r.opening_balance}`, { size: 10, bold: true, gap: 6 });
  if (r.entries.length === 0) w.line('No entries in this period.', { gap: 8 });
  else
    w.table(
      [
        { header: 'No.', width: 0.05, align: 'right' },
        { header: 'When (UTC)', width: 0.14 },
        { header: 'What', width: 0.33 },
        { header: 'Change', width: 0.08, align: 'right' },
        { header: 'Balance', width: 0.08, align: 'right' },
        { header: 'By', width: 0.16 },
        { header: 'Witness', width: 0.16 },
      ],
      r.entries.map((e) => [
        String(e.seq),
        when(e.recorded_at),
        whatOf(e),
        signed(e.change),
        e.balance,
        person(e.recorded_by),
        e.witness ? person(e.witness) : 'not witnessed',
      ]),
    );
  w.line(`Balance at the end of the period: ${r.closing_balance}`, { size: 10, bold: true, gap: 4 });
  w.line(`Ledger balance now: ${rec.ledger_balance} · the inventory records ${rec.recorded_quantity}`, { size: 10, gap: 4 });
  if (rec.counted === null) w.line('Counted: ____________  Difference (counted − ledger balance): ____________', { size: 10, gap: 4 });
  else {
    const how = rec.counted_by === 'stocktake' ? 'by a count session' : 'by hand';
    w.line(`Counted ${how}: ${rec.counted} · difference (counted − ledger balance): ${signed(rec.difference ?? '0')}`, {
      size: 10,
      bold: true,
      gap: 4,
    });
  }
  const waiting = rec.unwitnessed.length;
  w.line(waiting === 0 ? 'Every entry is witnessed.' : `${waiting} entr${waiting === 1 ? 'y waits' : 'ies wait'} for a witness.`, {
    size: 10,
    gap: 8,
  });
  w.signatures(SIGNATURES);
  return w.save();
}

/** Every controlled item of a lab: its balance, its last count and the difference. */
export async function labPdf(r: LabReconciliation): Promise<Uint8Array> {
  const w = await pdfWriter(`Controlled substances of ${r.lab.name}`);
  w.line(`Controlled substances of ${r.lab.name}: reconciliation`, { size: 15, bold: true, gap: 6 });
  w.line(`Made ${when(r.generated_at)} UTC · last count: the latest count session that counted the item`, { size: 10, gap: 10 });
  if (r.items.length === 0) w.line('This lab has no controlled substances.', { size: 10, gap: 8 });
  else
    w.table(
      [
        { header: 'Item', width: 0.25 },
        { header: 'Schedule', width: 0.15 },
        { header: 'Balance', width: 0.1, align: 'right' },
        { header: 'Recorded', width: 0.1, align: 'right' },
        { header: 'Last count', width: 0.18 },
        { header: 'Difference', width: 0.1, align: 'right' },
        { header: 'Not witnessed', width: 0.12, align: 'right' },
      ],
      r.items.map((i) => [
        `${i.item_name}${i.unit_size ? ` (${i.unit_size})` : ''}`,
        i.schedule,
        i.ledger_balance,
        i.recorded_quantity,
        i.last_count ? `${i.last_count.counted} on ${i.last_count.counted_at.slice(0, 10)}` : 'never counted',
        i.difference === null ? '' : signed(i.difference),
        String(i.waiting_for_witness),
      ]),
    );
  w.signatures(SIGNATURES.slice(1));
  return w.save();
}
