import { type Static, Type } from 'typebox';
import { ref, Uuid } from '../shared/schemas.js';
import { LabRoleSchema } from './approval-schemas.js';

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

// Organization administration of labs (src/labs/admin-routes.ts; docs/auth.md).

export const OrganizationLab = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    uses_instances: Type.Boolean(),
    archived_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'OrganizationLab', title: 'OrganizationLab', additionalProperties: false },
);
export type OrganizationLab = Static<typeof OrganizationLab>;

export const CreateOrganizationLabBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200 }), uses_instances: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export type CreateOrganizationLabBody = Static<typeof CreateOrganizationLabBody>;

export const UpdateOrganizationLabBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    archived: Type.Optional(Type.Boolean({ description: 'true archives the lab: it leaves GET /labs; false brings it back.' })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateOrganizationLabBody = Static<typeof UpdateOrganizationLabBody>;

export const LabMember = Type.Object(
  {
    id: Uuid,
    first_name: Type.String(),
    last_name: Type.String(),
    email: Type.String(),
    role: LabRoleSchema,
    added_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'LabMember', title: 'LabMember', additionalProperties: false },
);
export type LabMember = Static<typeof LabMember>;

export const AddLabMemberBody = Type.Object({ user_id: Uuid, role: Type.Optional(LabRoleSchema) }, { additionalProperties: false });
export type AddLabMemberBody = Static<typeof AddLabMemberBody>;
