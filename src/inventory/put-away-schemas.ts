import { type Static, Type } from 'typebox';
import { DateTime, NDate, NString, NUuid, orNull, ref, Uuid } from '../shared/schemas.js';
import { ReceivedIdentifiers } from './identifiers-schemas.js';
import { InstanceLocation } from './schemas.js';

// Put-away (docs/product.md §14, docs/api.md "Put-away"): its own resource, never fields on the contract's item.

export const PutAwayInstance = Type.Object(
  {
    item_id: Uuid,
    instance_id: Uuid,
    item_name: Type.String(),
    vendor: NString,
    catalog_number: NString,
    unit_size: NString,
    quantity: Type.String(),
    lot_number: NString,
    expiration_date: NDate,
    location_id: NUuid,
    location: orNull(ref(InstanceLocation)),
    lab: Type.Object({ id: Uuid, name: Type.String() }, { additionalProperties: false }),
    arrived_at: { ...DateTime, description: 'When it was received without a lot, expiry or location.' },
    app_url: Type.String({ format: 'uri', description: "The item's page." }),
  },
  { $id: 'PutAwayInstance', title: 'PutAwayInstance', additionalProperties: false },
);
export type PutAwayInstance = Static<typeof PutAwayInstance>;

export const PutAwayBody = Type.Object(
  {
    lot_number: Type.Optional(NString),
    expiration_date: Type.Optional(NDate),
    location_id: Type.Optional(NUuid),
    identifiers: Type.Optional(ReceivedIdentifiers),
  },
  { additionalProperties: false },
);
export type PutAwayBody = Static<typeof PutAwayBody>;
