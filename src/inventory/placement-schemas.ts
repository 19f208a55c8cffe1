import { type Static, Type } from 'typebox';
import { PhysicalStateSchema } from '../hazards/control-area-schemas.js';
import { DecimalString, NUuid, orNull, Uuid } from '../shared/schemas.js';

// The placement checks' application endpoints (docs/safety.md, docs/api.md "Safety").

const Group = Type.String({
  description: 'A storage group: flammable, oxidizer, organic-peroxide, pyrophoric, water-reactive, acid, base, aqueous, toxic.',
});
const Mode = Type.Union([Type.Literal('warn'), Type.Literal('block')]);

const SegregationFinding = Type.Object(
  {
    incoming_item_name: Type.String(),
    instance_id: NUuid,
    item_id: NUuid,
    item_name: Type.String({ description: 'The container already there that conflicts.' }),
    group: Group,
    other_group: Group,
    reason: Type.String(),
    message: Type.String({ description: 'The finding in one sentence, as the app shows it.' }),
  },
  { additionalProperties: false },
);

const LimitFinding = Type.Object(
  {
    control_area_id: Uuid,
    control_area_name: Type.String(),
    category: Type.String(),
    state: PhysicalStateSchema,
    label: Type.String(),
    unit: Type.String(),
    current: Type.String({ description: 'Stored in the control area before, in unit.' }),
    adding: Type.String({ description: 'What comes in, in unit.' }),
    limit: Type.String(),
    over_by: Type.String({ description: 'How far stored plus incoming goes over the limit.' }),
    message: Type.String(),
  },
  { additionalProperties: false },
);

const ItemRef = Type.Object({ item_id: NUuid, item_name: Type.String() }, { additionalProperties: false });

export const PlacementCheck = Type.Object(
  {
    segregation: Type.Array(SegregationFinding),
    limits: Type.Array(LimitFinding),
    unknown_amounts: Type.Array(ItemRef, {
      description: 'Incoming containers whose unit size is not understood: not counted, never guessed.',
    }),
    modes: Type.Object({ segregation: Mode, limits: Mode }, { additionalProperties: false }),
    blocked: Type.Boolean({ description: "Whether the lab's settings would refuse the write (409)." }),
  },
  { $id: 'PlacementCheck', title: 'PlacementCheck', additionalProperties: false },
);
export type PlacementCheck = Static<typeof PlacementCheck>;

export const PlacementCheckBody = Type.Object(
  {
    location_id: Uuid,
    instances: Type.Optional(
      Type.Array(
        Type.Object(
          {
            instance_id: Uuid,
            quantity: Type.Optional(DecimalString),
          },
          { additionalProperties: false },
        ),
        { maxItems: 200, description: 'Containers to move there; quantity: its quantity there (default: as it is).' },
      ),
    ),
    items: Type.Optional(
      Type.Array(Type.Object({ item_id: Uuid, quantity: DecimalString }, { additionalProperties: false }), {
        maxItems: 200,
        description: 'New containers of these items to add there (quantity in unit sizes).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type PlacementCheckBody = Static<typeof PlacementCheckBody>;

const MeterLine = Type.Object(
  {
    category: Type.String(),
    state: PhysicalStateSchema,
    label: Type.String(),
    unit: Type.String(),
    amount: Type.String(),
    limit: Type.String(),
    over: Type.Boolean(),
    unknown_containers: Type.Integer({
      description:
        'How many containers of the category have an amount that is not known (an unparsed unit size, a liquid sized by mass): never guessed, never counted.',
    }),
    unknown_items: Type.Array(
      Type.Object({ item_id: NUuid, item_name: Type.String(), containers: Type.Integer() }, { additionalProperties: false }),
      { description: 'The items those containers belong to, by name, with how many of each: the first unknown_limit of them.' },
    ),
    unknown_items_count: Type.Integer({ description: 'How many items have containers of unknown amount in all.' }),
  },
  { additionalProperties: false },
);

export const ControlAreaMeterQuery = Type.Object(
  {
    unknown_limit: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1000,
        default: 10,
        description: 'How many items of unknown amount each line names (the counts are always whole).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ControlAreaMeterQuery = Static<typeof ControlAreaMeterQuery>;

export const ControlAreaMeter = Type.Object(
  {
    location_id: Uuid,
    name: Type.String(),
    marked: Type.Boolean({ description: 'false: the location is not a control area (lines is empty).' }),
    lines: Type.Array(MeterLine),
  },
  { $id: 'ControlAreaMeter', title: 'ControlAreaMeter', additionalProperties: false },
);
export type ControlAreaMeter = Static<typeof ControlAreaMeter>;

const Side = Type.Object({ instance_id: NUuid, item_id: NUuid, item_name: Type.String(), group: Group }, { additionalProperties: false });

export const SegregationReport = Type.Object(
  {
    location_id: Uuid,
    conflicts: Type.Array(
      Type.Object({ a: Side, b: Side, reason: Type.String(), message: Type.String() }, { additionalProperties: false }),
    ),
  },
  { $id: 'SegregationReport', title: 'SegregationReport', additionalProperties: false },
);
export type SegregationReport = Static<typeof SegregationReport>;

export const StorageAttributes = Type.Object(
  {
    corrosive: orNull(Type.Union([Type.Literal('acid'), Type.Literal('base')])),
    aqueous: Type.Boolean({ description: 'An aqueous solution (kept away from water-reactives).' }),
  },
  { $id: 'StorageAttributes', title: 'StorageAttributes', additionalProperties: false },
);
export type StorageAttributes = Static<typeof StorageAttributes>;
