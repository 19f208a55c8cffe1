import { type Static, Type } from 'typebox';
import { ref, Uuid } from '../shared/schemas.js';

// The lab and its organization exactly as the contract shows it: one declaration validates, serializes and documents (src/shared/schemas.ts).

export const Organization = Type.Object({ id: Uuid, name: Type.String() }, { $id: 'Organization', additionalProperties: false });

export const Lab = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    organization: ref(Organization),
    uses_instances: Type.Boolean({ description: 'Temporary field: false = legacy lab; true (or absent) = migrated to instances.' }),
  },
  { $id: 'Lab', title: 'Lab', additionalProperties: false },
);
export type Lab = Static<typeof Lab>;
