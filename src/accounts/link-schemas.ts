import { type Static, Type } from 'typebox';
import { EmailAddress, ref, Uuid } from '../shared/schemas.js';
import { OrganizationUser } from './schemas.js';

// Invitations and password resets by one-time links (docs/auth.md).

const Role = Type.Union([Type.Literal('admin'), Type.Literal('member')]);
const Name = Type.String({ minLength: 1, maxLength: 100 });
const Password = Type.String({ minLength: 1, maxLength: 1024 });
/** A link's secret: 32 random bytes in base64url (the last segment of the link). */
const Secret = Type.String({ minLength: 1, maxLength: 100, description: 'The last segment of the link.' });

export const IssuedLinkBody = Type.Object(
  {
    url: Type.String({ description: 'The one-time link: shown in this answer only. Hand it to the person if it was not mailed.' }),
    expires_at: Type.String({ format: 'date-time' }),
    mailed: Type.Boolean({
      description: 'true when the SMTP server accepted the mail carrying the link; false when email is off or failed.',
    }),
  },
  { $id: 'IssuedLink', title: 'IssuedLink', additionalProperties: false },
);
export type IssuedLinkBody = Static<typeof IssuedLinkBody>;

export const InvitedUser = Type.Object(
  { ...OrganizationUser.properties, invitation: ref(IssuedLinkBody) },
  { $id: 'InvitedUser', title: 'InvitedUser', additionalProperties: false },
);

export const InviteUserBody = Type.Object(
  {
    email: EmailAddress,
    role: Type.Optional(Role),
    first_name: Type.Optional(Name),
    last_name: Type.Optional(Name),
  },
  { additionalProperties: false },
);
export type InviteUserBody = Static<typeof InviteUserBody>;

export const InvitationDetails = Type.Object(
  {
    email: Type.String(),
    organization: Type.Object({ id: Uuid, name: Type.String() }, { additionalProperties: false }),
    existing_account: Type.Boolean({
      description: 'true when the account already has a password: accepting then asks for that password and keeps the name.',
    }),
    expires_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'InvitationDetails', title: 'InvitationDetails', additionalProperties: false },
);
export type InvitationDetails = Static<typeof InvitationDetails>;

export const InvitationParams = Type.Object({ token: Secret });

export const AcceptInvitationBody = Type.Object(
  {
    token: Secret,
    password: Password,
    first_name: Type.Optional(Name),
    last_name: Type.Optional(Name),
  },
  { additionalProperties: false },
);
export type AcceptInvitationBody = Static<typeof AcceptInvitationBody>;

export const RequestPasswordResetBody = Type.Object({ email: EmailAddress }, { additionalProperties: false });

export const CompletePasswordResetBody = Type.Object({ token: Secret, password: Password }, { additionalProperties: false });
export type CompletePasswordResetBody = Static<typeof CompletePasswordResetBody>;
