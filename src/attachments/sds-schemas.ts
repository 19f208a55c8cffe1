import { type Static, Type } from 'typebox';
import { DateString, Uuid } from '../shared/schemas.js';

// Safety data sheets (docs/hazards.md): an addition of the application API on its own endpoints.

export const SafetyDataSheet = Type.Object(
  {
    attachment_id: Uuid,
    owner_kind: Type.Union([Type.Literal('item'), Type.Literal('type')]),
    owner_id: Uuid,
    file_name: Type.String(),
    revised_on: { ...DateString, description: 'The revision date printed on the sheet.' },
    review_due_on: { ...DateString, description: 'revised_on plus review_years.' },
    review_years: Type.Integer({ description: 'SDS_REVIEW_YEARS of the installation (default 5).' }),
    overdue: Type.Boolean({ description: 'Older than review_years today: due for review (ask the supplier for the current sheet).' }),
    download_url: Type.String(),
  },
  { $id: 'SafetyDataSheet', title: 'SafetyDataSheet', additionalProperties: false },
);
export type SafetyDataSheet = Static<typeof SafetyDataSheet>;

export const MarkSafetyDataSheetBody = Type.Object(
  {
    revised_on: Type.Union([DateString, Type.Null()], {
      description: 'The revision date printed on the sheet (YYYY-MM-DD, not in the future); null: it is no longer the safety data sheet.',
    }),
  },
  { additionalProperties: false },
);
