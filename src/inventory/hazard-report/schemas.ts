import { type Static, Type } from 'typebox';
import { DateTime, NString, NUuid, ref, Uuid } from '../../shared/schemas.js';
import { Amount } from '../amounts-schemas.js';

// A lab's hazard inventory (docs/hazard-reports.md): an application resource of its own.

const Path = Type.Array(Type.String(), { description: 'Root to leaf location names; [] for no location.' });

export const ReportContainer = Type.Object(
  {
    item_id: Uuid,
    instance_id: { ...NUuid, description: 'The container; null in a lab that does not use instances (the item is one entry).' },
    name: Type.String(),
    location_path: Path,
    quantity: Type.String(),
    unit_size: NString,
    amount: { ...ref(Amount), description: 'quantity × unit size; unknown when the size cannot be read.' },
    category: Type.String({ description: "The container's category of this class." }),
    hazard_statements: Type.Array(Type.String(), { description: 'Its hazard statements (H-codes).' }),
  },
  { additionalProperties: false },
);
export type ReportContainer = Static<typeof ReportContainer>;

export const ReportLimit = Type.Object(
  {
    label: Type.String({ description: 'The fire-code category the limit is for ("Flammable liquid IB").' }),
    state: Type.Union([Type.Literal('solid'), Type.Literal('liquid'), Type.Literal('gas')]),
    unit: Type.String({ description: 'kg for solids, L for liquids, m³ for gases.' }),
    stored: Type.String({ description: 'What the control area holds against it, a decimal in `unit`.' }),
    limit: Type.String({ description: 'The limit in force, a decimal in `unit`.' }),
    over: Type.Boolean(),
    text: Type.String({ description: 'In words: "118 L of 120 L".' }),
    unknown: Type.Integer({ minimum: 0, description: 'Containers of it whose amount is not known: not counted, never guessed.' }),
  },
  { additionalProperties: false },
);
export type ReportLimit = Static<typeof ReportLimit>;

const NAmount = Type.Union([ref(Amount), Type.Null()]);

export const ReportClass = Type.Object(
  {
    class_id: Type.String({ description: "The hazard class's id (flammable-liquid, oxidizing-liquid, skin-corrosion, …)." }),
    name: Type.String(),
    category: Type.String({ description: 'The most severe category among its containers.' }),
    containers: Type.Integer({ minimum: 1 }),
    total: Type.Object(
      { mass: NAmount, volume: NAmount, count: NAmount },
      { additionalProperties: false, description: 'Sums per unit family of the containers whose size could be read.' },
    ),
    unknown: Type.Integer({ minimum: 0, description: 'Containers whose size could not be read: listed, not summed.' }),
    items: Type.Array(ReportContainer),
  },
  { additionalProperties: false },
);
export type ReportClass = Static<typeof ReportClass>;

export const ReportGroup = Type.Object(
  {
    location: Type.Object(
      {
        id: { ...NUuid, description: 'null for no location, or a typed location of a lab that does not use instances.' },
        path: Path,
      },
      { additionalProperties: false },
    ),
    control_area: Type.Boolean(),
    limits: Type.Array(ReportLimit, {
      description: "A control area's limits that something stored in it counts against (docs/safety.md); [] elsewhere.",
    }),
    classes: Type.Array(ReportClass),
  },
  { additionalProperties: false },
);
export type ReportGroup = Static<typeof ReportGroup>;

const By = (options: { default?: string; description?: string } = {}) =>
  Type.Union([Type.Literal('location'), Type.Literal('building'), Type.Literal('control-area')], options);

export const HazardReport = Type.Object(
  {
    lab: Type.Object({ id: Uuid, name: Type.String() }, { additionalProperties: false }),
    by: By(),
    scope: Type.Union([Type.Object({ id: Uuid, path: Path }, { additionalProperties: false }), Type.Null()], {
      description: 'The location whose subtree the report covers; null for the whole lab.',
    }),
    generated_at: DateTime,
    groups: Type.Array(ReportGroup),
  },
  { $id: 'HazardReport', title: 'HazardReport', additionalProperties: false },
);
export type HazardReport = Static<typeof HazardReport>;

export const HazardReportQuery = Type.Object({
  by: Type.Optional(
    By({
      default: 'location',
      description:
        'location: each location with what is stored right there; building: each top-level location with everything below it; control-area: each control area with everything below it and its limits.',
    }),
  ),
  location_id: Type.Optional({ ...Uuid, description: "Only this location's subtree (a location of the lab)." }),
  format: Type.Optional(
    Type.Union([Type.Literal('json'), Type.Literal('csv'), Type.Literal('pdf')], {
      description: 'json (the default), csv or pdf; without it, Accept: text/csv or application/pdf choose too.',
    }),
  ),
});
export type HazardReportQuery = Static<typeof HazardReportQuery>;
