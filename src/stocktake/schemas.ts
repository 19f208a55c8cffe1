import { type Static, Type } from 'typebox';
import { UserSummary } from '../accounts/schemas.js';
import { PlacementCheck } from '../inventory/placement-schemas.js';
import { InstanceLocation } from '../inventory/schemas.js';
import { DECIMAL_PATTERN } from '../shared/decimal.js';
import { DateTime, NDate, NString, NUuid, orNull, ref, Uuid } from '../shared/schemas.js';

// Stocktake (docs/stocktake.md, docs/product.md §14): its own resources on its own endpoints; the contract's item is
// untouched (the apply changes items as any adjustment or move does).

export const StocktakeStatus = Type.Union([Type.Literal('open'), Type.Literal('applied'), Type.Literal('cancelled')], {
  description: 'open: being counted (it can be left and resumed); applied: its result is in the inventory; cancelled: nothing applied.',
});

export const LineState = Type.Union(
  [Type.Literal('missing'), Type.Literal('unexpected'), Type.Literal('different'), Type.Literal('matching')],
  {
    description:
      'missing: stored in the subtree but not counted (yet). unexpected: counted here but recorded elsewhere (outside the subtree, or at another place in it); applying moves it. different: counted with another quantity than recorded. matching: counted as recorded.',
  },
);

export const StocktakeLine = Type.Object(
  {
    instance_id: {
      ...NUuid,
      description: 'The container counted; null in a count of a lab that does not use instances, whose lines are items.',
    },
    item_id: Uuid,
    item_name: Type.String(),
    vendor: NString,
    catalog_number: NString,
    unit_size: NString,
    lot_number: NString,
    expiration_date: NDate,
    state: LineState,
    expected: Type.Boolean({ description: 'Stored in the counted subtree: on the list to count.' }),
    recorded_quantity: Type.String({ description: 'What the inventory records (when it was counted, for a counted one).' }),
    recorded_location: Type.Union([ref(InstanceLocation), Type.Null()], {
      description:
        'Where it is recorded. For an item of a lab that does not use instances: its location and sublocation as pathNames, name the last of them.',
    }),
    counted: Type.Boolean({ description: 'Whether someone counted it in this session.' }),
    counted_quantity: Type.Unsafe<string | null>({
      type: ['string', 'null'],
      description: 'The quantity counted; null: ticked as there without a quantity (as recorded), or not counted.',
    }),
    found_location: Type.Union([ref(InstanceLocation), Type.Null()], {
      description: 'Where it was found, when that is not where it is recorded.',
    }),
    found_location_id: NUuid,
    counted_by: orNull(ref(UserSummary)),
    counted_at: Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date-time' }),
  },
  { $id: 'StocktakeLine', title: 'StocktakeLine', additionalProperties: false },
);
export type StocktakeLine = Static<typeof StocktakeLine>;

const Count = Type.Integer({ minimum: 0 });

export const Stocktake = Type.Object(
  {
    id: Uuid,
    lab: Type.Object({ id: Uuid, name: Type.String() }, { additionalProperties: false }),
    covers: Type.Union([Type.Literal('location'), Type.Literal('lab')], {
      description:
        'location: a location and everything below it (its lines are containers); lab: every item of a lab that does not use instances (its lines are items).',
    }),
    location_id: { ...NUuid, description: 'The root of the counted subtree; null for a count that covers a lab.' },
    location: Type.Union([ref(InstanceLocation), Type.Null()], {
      description: 'The root of the counted subtree; null once deleted, and for a count that covers a lab.',
    }),
    status: StocktakeStatus,
    started_by: orNull(ref(UserSummary)),
    started_at: DateTime,
    finished_by: Type.Union([ref(UserSummary), Type.Null()], { description: 'Who applied or cancelled it.' }),
    finished_at: Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date-time' }),
    missing_set_to_zero: Type.Boolean({ description: 'Whether the apply set the quantity of every missing container to zero.' }),
    summary: Type.Object(
      { expected: Count, counted: Count, missing: Count, unexpected: Count, different: Count, matching: Count },
      { additionalProperties: false, description: 'How many lines are in each state; expected: stored in the subtree.' },
    ),
    app_url: Type.String({ format: 'uri', description: "The count's page in the web application." }),
  },
  { $id: 'Stocktake', title: 'Stocktake', additionalProperties: false },
);
export type Stocktake = Static<typeof Stocktake>;

export const StocktakeWithLines = Type.Object(
  {
    ...Stocktake.properties,
    lines: Type.Array(ref(StocktakeLine)),
    // The apply's answer only (docs/safety.md): never blocks, `blocked` is always false.
    placement_findings: Type.Optional(ref(PlacementCheck)),
  },
  { $id: 'StocktakeWithLines', title: 'StocktakeWithLines', additionalProperties: false },
);
export type StocktakeWithLines = Static<typeof StocktakeWithLines>;

export const StartBody = Type.Object(
  {
    location_id: Type.Optional({ ...Uuid, description: 'The location whose subtree is counted (a lab that uses instances).' }),
    lab_id: Type.Optional({ ...Uuid, description: 'A lab that does not use instances: every item of it is counted.' }),
  },
  {
    additionalProperties: false,
    description: 'Exactly one of location_id and lab_id.',
    examples: [{ location_id: '0190f5d2-8c1e-7a55-9b1e-3f0c2a7d4e11' }, { lab_id: '0190f5d2-8c1e-7a55-9b1e-3f0c2a7d4e10' }],
  },
);
export type StartBody = Static<typeof StartBody>;

export const CountBody = Type.Object(
  {
    quantity: Type.Optional(
      Type.Unsafe<string | null>({
        type: ['string', 'null'],
        pattern: DECIMAL_PATTERN,
        description: 'What is there; null or absent: there, as recorded (a tick).',
      }),
    ),
    location_id: Type.Optional({
      ...NUuid,
      description:
        'Where it was found, in the counted subtree, when not where it is recorded. Absent: where recorded, or the counted location itself for a container recorded outside the subtree.',
    }),
  },
  { additionalProperties: false, examples: [{ quantity: '0.5' }, { location_id: '0190f5d2-8c1e-7a55-9b1e-3f0c2a7d4e11' }] },
);
export type CountBody = Static<typeof CountBody>;

export const ItemCountBody = Type.Object(
  {
    quantity: Type.Optional(
      Type.Unsafe<string | null>({
        type: ['string', 'null'],
        pattern: DECIMAL_PATTERN,
        description: 'What is there; null or absent: there, as recorded (a tick).',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ quantity: '2' }, {}] },
);
export type ItemCountBody = Static<typeof ItemCountBody>;

export const ApplyBody = Type.Object(
  {
    missing: Type.Optional(
      Type.Union([Type.Literal('leave'), Type.Literal('set_to_zero')], {
        description:
          'What happens to the containers not counted: leave (the default) keeps them as recorded and lists them in the report; set_to_zero sets their quantity to 0.',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ missing: 'leave' }] },
);
export type ApplyBody = Static<typeof ApplyBody>;

export const ListQuery = Type.Object({
  lab_id: Type.Optional({ ...Uuid, description: 'Only counts of this lab.' }),
  location_id: Type.Optional({ ...Uuid, description: 'Only counts of this location (the root of the subtree).' }),
  status: Type.Optional(StocktakeStatus),
});
