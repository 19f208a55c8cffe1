import { type Static, Type } from 'typebox';
import { NString, Uuid } from '../shared/schemas.js';

// The webhook exactly as the contract shows it: one declaration validates, serializes and documents (src/shared/schemas.ts).

export const Webhook = Type.Object(
  {
    id: Uuid,
    name: NString,
    url: Type.String(),
    event_types: Type.Array(Type.String(), { description: 'Full event type strings; [] delivers every event.' }),
    is_enabled: Type.Boolean(),
    is_verified: Type.Boolean(),
    is_signed: Type.Boolean(),
    signing_key: Type.String(),
  },
  { title: 'Webhook', additionalProperties: false },
);
export type Webhook = Static<typeof Webhook>;
