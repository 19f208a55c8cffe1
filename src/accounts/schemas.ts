import { type Static, Type } from 'typebox';
import { Uuid } from '../shared/schemas.js';

// The user summary exactly as the contract shows it: one declaration validates, serializes and documents (src/shared/schemas.ts).

export const UserSummary = Type.Object(
  { id: Uuid, first_name: Type.String(), last_name: Type.String(), email: Type.String({ format: 'email' }) },
  { $id: 'UserSummary', title: 'UserSummary', additionalProperties: false },
);
export type UserSummary = Static<typeof UserSummary>;
