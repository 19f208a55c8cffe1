import { type Static, Type } from 'typebox';
import { UserSummary } from '../accounts/schemas.js';
import { DateTime, orNull, ref, Uuid } from '../shared/schemas.js';
import { PICTOGRAMS, type Pictogram } from './ghs-classes.js';
import { MAX_STATEMENTS } from './rules.js';

// The application API of hazards (docs/hazards.md, docs/api.md "Hazards"): additions on their own endpoints, never
// fields on the contract's items or types.

const Code = Type.String({ description: 'A GHS hazard statement code: H225, H300+H310, H360Fd.' });
const PictogramCode = Type.Unsafe<Pictogram>({
  type: 'string',
  enum: Object.keys(PICTOGRAMS),
  description:
    'GHS01 exploding bomb, GHS02 flame, GHS03 flame over circle, GHS04 gas cylinder, GHS05 corrosion, GHS06 skull and crossbones, GHS07 exclamation mark, GHS08 health hazard, GHS09 environment.',
});
const SignalWordSchema = orNull(Type.Union([Type.Literal('Danger'), Type.Literal('Warning')]));

const ClassOf = Type.Object(
  {
    id: Type.String({ description: "Stable kebab-case id, e.g. 'flammable-liquid' (GET /hazards/classes)." }),
    name: Type.String(),
    category: Type.String({ description: "The most severe category the statements give ('1', '2', '1A', 'A')." }),
    categories: Type.Array(Type.String(), { description: 'Every category the statements allow (H272: oxidizer 2 or 3).' }),
  },
  { additionalProperties: false },
);

const Statement = Type.Object({ code: Code, text: Type.String() }, { additionalProperties: false });

/** What a set of statements means, as every hazards answer carries it. */
const Classified = {
  statements: Type.Array(Statement, { description: 'The statements shown, in the table order.' }),
  classes: Type.Array(ClassOf),
  pictograms: Type.Array(PictogramCode, { description: 'After the GHS precedence rules (docs/hazards.md).' }),
  signal_word: SignalWordSchema,
};

export const ItemHazards = Type.Object(
  {
    item_id: Uuid,
    source: Type.Union([Type.Literal('item'), Type.Literal('type'), Type.Literal('none')], {
      description: "item: the item's own statements; type: inherited from its type; none: recorded on neither.",
    }),
    own_statements: Type.Union([Type.Array(Code), Type.Null()], {
      description: 'null: the item has none of its own and inherits its type\'s; []: "no hazards" on purpose.',
    }),
    type_statements: Type.Array(Code, { description: "Its type's statements ([] without a type or when the type has none)." }),
    ...Classified,
    updated_by: orNull(ref(UserSummary)),
    updated_at: orNull(DateTime),
  },
  { $id: 'ItemHazards', title: 'ItemHazards', additionalProperties: false },
);
export type ItemHazards = Static<typeof ItemHazards>;

export const TypeHazards = Type.Object(
  { type_id: Uuid, ...Classified, updated_by: orNull(ref(UserSummary)), updated_at: orNull(DateTime) },
  { $id: 'TypeHazards', title: 'TypeHazards', additionalProperties: false },
);
export type TypeHazards = Static<typeof TypeHazards>;

export const ItemHazardSummary = Type.Object(
  { item_id: Uuid, pictograms: Type.Array(PictogramCode), signal_word: SignalWordSchema, class_ids: Type.Array(Type.String()) },
  { $id: 'ItemHazardSummary', title: 'ItemHazardSummary', additionalProperties: false },
);
export type ItemHazardSummary = Static<typeof ItemHazardSummary>;

export const HazardStatementRule = Type.Object(
  {
    code: Code,
    text: Type.String(),
    classes: Type.Array(Type.Object({ id: Type.String(), categories: Type.Array(Type.String()) }, { additionalProperties: false })),
    pictograms: Type.Array(PictogramCode),
    signal_word: SignalWordSchema,
    origin: Type.Union([Type.Literal('ghs'), Type.Literal('clp'), Type.Literal('earlier')], {
      description: 'ghs: GHS Rev. 10 Annex 3; clp: the EU CLP variant of a GHS code; earlier: retired in GHS Rev. 10, still on older SDSs.',
    }),
  },
  { $id: 'HazardStatementRule', title: 'HazardStatementRule', additionalProperties: false },
);

export const HazardClassInfo = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    kind: Type.Union([Type.Literal('physical'), Type.Literal('health'), Type.Literal('environmental')]),
    categories: Type.Array(Type.String(), { description: 'Most severe first.' }),
  },
  { $id: 'HazardClassInfo', title: 'HazardClassInfo', additionalProperties: false },
);

const Codes = Type.Array(Type.String({ maxLength: 40 }), { maxItems: MAX_STATEMENTS });

export const SetItemHazardsBody = Type.Object(
  {
    hazard_statements: Type.Union([Codes, Type.Null()], {
      description:
        "The item's own statements ([] records \"no hazards\", overriding its type's); null removes them, and the item inherits its type's.",
    }),
  },
  { additionalProperties: false },
);
export type SetItemHazardsBody = Static<typeof SetItemHazardsBody>;

export const SetTypeHazardsBody = Type.Object(
  {
    hazard_statements: Type.Array(Type.String({ maxLength: 40 }), {
      maxItems: MAX_STATEMENTS,
      description: "The type's statements; [] removes them.",
    }),
  },
  { additionalProperties: false },
);
export type SetTypeHazardsBody = Static<typeof SetTypeHazardsBody>;

export const ItemHazardsQuery = Type.Object(
  { ids: Type.String({ description: 'Comma-separated item ids, at most 100.', maxLength: 3800 }) },
  { additionalProperties: false },
);
