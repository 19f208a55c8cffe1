import { type Static, Type } from 'typebox';
import { NString, ref, Uuid } from '../shared/schemas.js';

// Amounts in real units (docs/hazard-reports.md "Amounts", docs/decisions/0026-units.md): their own resources, never
// fields on the contract's item, whose unit_size stays the string it is.

export const Amount = Type.Object(
  {
    family: Type.Union([Type.Literal('mass'), Type.Literal('volume'), Type.Literal('count'), Type.Literal('unknown')], {
      description: 'What the unit size measures; unknown when it could not be read ("5 mg/mL", "1 box of 10"): never guessed.',
    }),
    amount: { ...NString, description: 'The amount in `unit` as a decimal string (exact); null when unknown.' },
    unit: Type.Union([Type.Literal('kg'), Type.Literal('L'), Type.Literal('count'), Type.Null()], {
      description: 'kg for mass, L for volume, count for counted things; null when unknown.',
    }),
    text: { ...NString, description: 'The amount in words, in the unit that reads best ("750 mL", "1.2 kg", "500 tablets").' },
  },
  {
    $id: 'Amount',
    title: 'Amount',
    additionalProperties: false,
    examples: [{ family: 'volume', amount: '0.75', unit: 'L', text: '750 mL' }],
  },
);
export type Amount = Static<typeof Amount>;

export const ItemAmount = Type.Object(
  {
    item_id: Uuid,
    quantity: Type.String({ description: "The item's quantity (in a migrated lab, the sum of its active instances)." }),
    unit_size: NString,
    total: { ...ref(Amount), description: 'quantity × unit size.' },
    instances: Type.Array(
      Type.Object(
        { instance_id: Uuid, quantity: Type.String(), total: { ...ref(Amount), description: "The instance's quantity × unit size." } },
        { additionalProperties: false },
      ),
      { description: 'Each active instance in a lab that uses instances, in creation order; empty otherwise.' },
    ),
  },
  { $id: 'ItemAmount', title: 'ItemAmount', additionalProperties: false },
);
export type ItemAmount = Static<typeof ItemAmount>;

export const MAX_AMOUNT_IDS = 100;

export const ItemAmountsQuery = Type.Object({
  item_id: Type.Array(Uuid, {
    minItems: 1,
    maxItems: MAX_AMOUNT_IDS,
    description: `The items, as repeated parameters (item_id=…&item_id=…), at most ${MAX_AMOUNT_IDS}.`,
  }),
});
export type ItemAmountsQuery = Static<typeof ItemAmountsQuery>;
