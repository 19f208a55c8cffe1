import { type Static, Type } from 'typebox';
import { DecimalString, Uuid } from '../shared/schemas.js';

// Control areas (docs/safety.md): GET/PUT/DELETE /locations/{id}/control-area and the meter.

export const PhysicalStateSchema = Type.Union([Type.Literal('solid'), Type.Literal('liquid'), Type.Literal('gas')], {
  description: 'solid (limits in kg), liquid (L) or gas (m³ at NTP).',
});

const LimitInput = Type.Object(
  {
    category: Type.String({ maxLength: 60, description: 'An IFC category id, as listed in the limits of GET.' }),
    state: PhysicalStateSchema,
    limit: DecimalString,
  },
  { additionalProperties: false },
);

export const ControlAreaLimit = Type.Object(
  {
    category: Type.String(),
    state: PhysicalStateSchema,
    label: Type.String({ description: 'The category as a person reads it ("Flammable liquids IB and IC").' }),
    unit: Type.String({ description: 'kg, L or m³' }),
    limit: Type.String({ description: 'A decimal in unit.' }),
    source: Type.Union([Type.Literal('default'), Type.Literal('set')], {
      description: "default: the IFC's maximum allowable quantity with the area's options; set: edited for this area.",
    }),
  },
  { additionalProperties: false },
);

export const ControlArea = Type.Object(
  {
    location_id: Uuid,
    marked: Type.Boolean({ description: 'Whether the location is a control area. When false, limits shows the defaults it would get.' }),
    sprinklered: Type.Boolean({ description: 'The building is sprinklered throughout: the defaults +100 %.' }),
    cabinets: Type.Boolean({ description: 'Stored in approved storage cabinets: the defaults +100 % (with sprinklers, x4).' }),
    limits: Type.Array(ControlAreaLimit),
    can_edit: Type.Boolean({ description: "Whether the caller may mark it and set its limits (org admins and the lab's managers)." }),
  },
  { $id: 'ControlArea', title: 'ControlArea', additionalProperties: false },
);
export type ControlArea = Static<typeof ControlArea>;

export const UpdateControlAreaBody = Type.Object(
  {
    sprinklered: Type.Boolean(),
    cabinets: Type.Boolean(),
    limits: Type.Optional(
      Type.Array(LimitInput, {
        maxItems: 100,
        description: 'The limits set by hand; any other keeps its default. Absent: none set by hand (all defaults).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type UpdateControlAreaBody = Static<typeof UpdateControlAreaBody>;
