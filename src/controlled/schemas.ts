import { type Static, Type } from 'typebox';
import { UserSummary } from '../accounts/schemas.js';
import { DateString, DateTime, DecimalString, NString, NUuid, orNull, ref, Uuid } from '../shared/schemas.js';

// Controlled substances (docs/controlled-substances.md): resources of the application API on their own endpoints;
// the contract's item is untouched.

export const LedgerKind = Type.Union(
  [
    Type.Literal('opening'),
    Type.Literal('use'),
    Type.Literal('receipt'),
    Type.Literal('move'),
    Type.Literal('disposal'),
    Type.Literal('count'),
    Type.Literal('correction'),
    Type.Literal('closing'),
  ],
  {
    description:
      'opening: marked controlled (the balance it started with); use, receipt, move, disposal (a container archived), count (a stocktake applied): changes to the item; correction: corrects an earlier entry; closing: unmarked.',
  },
);

const Place = Type.Object({ id: Uuid, name: NString }, { additionalProperties: false });

export const LedgerEntry = Type.Object(
  {
    id: Uuid,
    item_id: Uuid,
    item_name: NString,
    lab_id: Uuid,
    seq: Type.Integer({ minimum: 1, description: "The entry's place in the item's ledger (1, 2, …)." }),
    kind: LedgerKind,
    amount: Type.String({ description: "How much the entry is about, in the item's units (for a move: the amount moved)." }),
    change: Type.String({ description: 'Its signed effect on the balance (0 for a move).' }),
    balance: Type.String({ description: 'The running balance after it.' }),
    unit_size: NString,
    instance_id: NUuid,
    from_location: orNull(Place),
    to_location: orNull(Place),
    corrects_id: NUuid,
    source: Type.String({ description: 'app, receiving, stocktake, correction or marking.' }),
    note: NString,
    recorded_by: ref(UserSummary),
    recorded_at: DateTime,
    witness: orNull(ref(UserSummary)),
    witnessed_at: Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date-time' }),
  },
  { $id: 'ControlledLedgerEntry', title: 'ControlledLedgerEntry', additionalProperties: false },
);
export type LedgerEntry = Static<typeof LedgerEntry>;

export const ControlledItem = Type.Object(
  {
    item_id: Uuid,
    item_name: Type.String(),
    lab_id: Uuid,
    schedule: Type.String(),
    unit_size: NString,
    balance: Type.String({ description: "The ledger's running balance." }),
    waiting_for_witness: Type.Integer({ minimum: 0, description: 'Entries no second person has witnessed yet.' }),
    marked_by: ref(UserSummary),
    marked_at: DateTime,
  },
  { $id: 'ControlledItem', title: 'ControlledItem', additionalProperties: false },
);
export type ControlledItem = Static<typeof ControlledItem>;

export const MarkBody = Type.Object(
  {
    schedule: Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '\\S',
      description: 'The schedule or class in the words of its jurisdiction, e.g. "DEA Schedule II" or "UK Class B".',
    }),
  },
  { additionalProperties: false },
);
export type MarkBody = Static<typeof MarkBody>;

export const CorrectionBody = Type.Object(
  {
    corrects_entry_id: Uuid,
    change: Type.String({
      pattern: '^-?\\d{1,20}(\\.\\d{1,10})?$',
      description: 'Signed amount added to the balance ("-0.5", "2"; "0" when only the record is corrected).',
    }),
    note: Type.String({ minLength: 1, maxLength: 1000, pattern: '\\S', description: 'What was wrong and why.' }),
  },
  { additionalProperties: false },
);
export type CorrectionBody = Static<typeof CorrectionBody>;

export const ReconciliationQuery = Type.Object(
  {
    counted: Type.Optional(DecimalString),
    stocktake_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
export type ReconciliationQuery = Static<typeof ReconciliationQuery>;

export const Reconciliation = Type.Object(
  {
    item_id: Uuid,
    item_name: Type.String(),
    schedule: Type.String(),
    unit_size: NString,
    ledger_balance: Type.String({ description: "The ledger's running balance." }),
    recorded_quantity: Type.String({ description: 'What the inventory records now.' }),
    counted: NString,
    counted_by: Type.Unsafe<'count' | 'stocktake' | null>({
      type: ['string', 'null'],
      enum: ['count', 'stocktake', null],
      description: 'count: entered with the request; stocktake: what the count session counted of it.',
    }),
    difference: Type.Unsafe<string | null>({ type: ['string', 'null'], description: 'counted − ledger balance; null without a count.' }),
    unwitnessed: Type.Array(ref(LedgerEntry)),
  },
  { $id: 'ControlledReconciliation', title: 'ControlledReconciliation', additionalProperties: false },
);
export type Reconciliation = Static<typeof Reconciliation>;

export const WaitingQuery = Type.Object({ lab_id: Type.Optional(Uuid) });

export const ControlledListQuery = Type.Object({
  lab_id: Type.Optional(Uuid),
  item_id: Type.Optional({ ...Uuid, description: 'Only this item: [] when it is not controlled (or not seen).' }),
});

export const UnmarkBody = Type.Object(
  {
    reason: Type.String({
      minLength: 1,
      maxLength: 1000,
      pattern: '\\S',
      description: 'Why it is no longer a controlled substance; the closing entry records it.',
    }),
  },
  { additionalProperties: false },
);
export type UnmarkBody = Static<typeof UnmarkBody>;

export const ReconciliationPdfQuery = Type.Object(
  {
    ...ReconciliationQuery.properties,
    from: Type.Optional({ ...DateString, description: "First day of the period (UTC); without it, the ledger's first day." }),
    to: Type.Optional({ ...DateString, description: 'Last day of the period (UTC), included; without it, today.' }),
  },
  { additionalProperties: false },
);
export type ReconciliationPdfQuery = Static<typeof ReconciliationPdfQuery>;

/** The latest count session (not cancelled) that counted the item. */
const LastCount = Type.Object(
  {
    stocktake_id: Uuid,
    counted_at: DateTime,
    counted: Type.String({ description: "What that count session counted of the item's containers." }),
  },
  { additionalProperties: false },
);

export const LabReconciliationItem = Type.Object(
  {
    item_id: Uuid,
    item_name: Type.String(),
    schedule: Type.String(),
    unit_size: NString,
    ledger_balance: Type.String({ description: "The ledger's running balance." }),
    recorded_quantity: Type.String({ description: 'What the inventory records now.' }),
    waiting_for_witness: Type.Integer({ minimum: 0 }),
    last_count: orNull(LastCount),
    difference: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      description: 'last count − ledger balance; null when never counted.',
    }),
  },
  { additionalProperties: false },
);
export type LabReconciliationItem = Static<typeof LabReconciliationItem>;

export const LabReconciliation = Type.Object(
  {
    lab: Type.Object({ id: Uuid, name: Type.String() }, { additionalProperties: false }),
    generated_at: DateTime,
    items: Type.Array(LabReconciliationItem),
  },
  { $id: 'ControlledLabReconciliation', title: 'ControlledLabReconciliation', additionalProperties: false },
);
export type LabReconciliation = Static<typeof LabReconciliation>;
