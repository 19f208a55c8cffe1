import { type Static, Type } from 'typebox';
import { Uuid } from '../shared/schemas.js';

// GET/PUT /labs/{id}/safety-settings (docs/safety.md).

const Mode = Type.Union([Type.Literal('warn'), Type.Literal('block')], {
  description: 'warn: the write goes ahead and the app shows what it found; block: the write is refused (409) and changes nothing.',
});

export const LabSafetySettings = Type.Object(
  {
    lab_id: Uuid,
    segregation: Mode,
    limits: Mode,
    can_edit: Type.Boolean({ description: "Whether the caller may change them (org admins and the lab's managers)." }),
  },
  { $id: 'LabSafetySettings', title: 'LabSafetySettings', additionalProperties: false },
);
export type LabSafetySettings = Static<typeof LabSafetySettings>;

export const UpdateLabSafetySettingsBody = Type.Object({ segregation: Mode, limits: Mode }, { additionalProperties: false });
export type UpdateLabSafetySettingsBody = Static<typeof UpdateLabSafetySettingsBody>;
