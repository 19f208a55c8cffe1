import { Type } from 'typebox';
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
