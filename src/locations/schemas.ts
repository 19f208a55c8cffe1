import { type Static, Type } from 'typebox';
import { NUuid, Uuid } from '../shared/schemas.js';

// A location as the location routes return it: one declaration serializes and documents (src/shared/schemas.ts).

export const Location = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    parent_id: NUuid,
    pathNames: Type.Array(Type.String(), { description: 'root first, this location last' }),
  },
  { $id: 'Location', title: 'Location', additionalProperties: false },
);

// The request bodies (routes.ts); the service takes UpdateLocationBody as it is.
const Name = Type.String({ minLength: 1, maxLength: 200 });

export const CreateLocationBody = Type.Object(
  { lab_id: Uuid, parent_id: Type.Optional(NUuid), name: Name },
  { additionalProperties: false },
);
export type CreateLocationBody = Static<typeof CreateLocationBody>;

export const UpdateLocationBody = Type.Object(
  { name: Type.Optional(Name), parent_id: Type.Optional(NUuid) },
  { additionalProperties: false },
);
export type UpdateLocationBody = Static<typeof UpdateLocationBody>;
