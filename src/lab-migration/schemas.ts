import { type Static, Type } from 'typebox';
import { DateTime, orNull, Uuid } from '../shared/schemas.js';

// The progress of a lab's migration to instances as its routes return it (src/shared/schemas.ts).

export const LabMigration = Type.Object(
  {
    lab_id: Uuid,
    status: Type.Union([Type.Literal('not_started'), Type.Literal('running'), Type.Literal('done')], {
      description:
        'not_started: a legacy lab; running: its inventory is read-only (writes 409 lab_migrating); done: the lab uses instances.',
    }),
    items_total: Type.Integer({
      minimum: 0,
      description: "Items the migration covers (the lab's items when it started); 0 for a lab created with instances.",
    }),
    items_migrated: Type.Integer({ minimum: 0, description: 'Items processed so far; equals items_total when done.' }),
    started_at: orNull(DateTime),
    updated_at: orNull(
      Type.String({
        format: 'date-time',
        description:
          'When the last batch committed. A running migration whose updated_at stands still has stopped: POST again to resume it.',
      }),
    ),
    finished_at: orNull(DateTime),
  },
  { $id: 'LabMigration', title: 'LabMigration', additionalProperties: false },
);

/** POST /labs/{id}/migrate-to-instances takes an empty object. */

export const MigrationBody = Type.Object({}, { additionalProperties: false });
export type MigrationBody = Static<typeof MigrationBody>;
