import { type Static, Type } from 'typebox';
import { EmailAddress, ref, Uuid } from '../shared/schemas.js';

// The user summary exactly as the contract shows it: one declaration validates, serializes and documents (src/shared/schemas.ts).

export const UserSummary = Type.Object(
  { id: Uuid, first_name: Type.String(), last_name: Type.String(), email: Type.String({ format: 'email' }) },
  { $id: 'UserSummary', title: 'UserSummary', additionalProperties: false },
);
export type UserSummary = Static<typeof UserSummary>;

const PersonName = Type.String({ minLength: 1, maxLength: 100 });

/** PUT /user: a person changes their own name (src/accounts/routes.ts). */
export const UpdateCurrentUserBody = Type.Object(
  {
    first_name: Type.Optional(PersonName),
    last_name: Type.Optional(PersonName),
    current_password: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        description: 'Required while the user belongs to more than one organization: the name shows in all of them.',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateCurrentUserBody = Static<typeof UpdateCurrentUserBody>;

// Sign-in, sessions, self-service tokens and organization administration (docs/auth.md).

const Role = Type.Union([Type.Literal('admin'), Type.Literal('member')]);
const Email = EmailAddress;
const Password = Type.String({ minLength: 1, maxLength: 1024 });

export const SignInBody = Type.Object(
  {
    email: Email,
    password: Password,
    organization_id: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
export type SignInBody = Static<typeof SignInBody>;

export const OrganizationChoice = Type.Object({ id: Uuid, name: Type.String(), role: Role }, { additionalProperties: false });

export const AuthSession = Type.Object(
  {
    signed_in: Type.Literal(true, { description: 'Always true here; GET /auth/session answers {"signed_in": false} without a session.' }),
    user: ref(UserSummary),
    organization: OrganizationChoice,
    organizations: Type.Array(OrganizationChoice, { description: 'Every organization the user may sign in to.' }),
    csrf_token: Type.String({ description: 'Send as X-CSRF-Token on POST, PUT, PATCH and DELETE made with the session cookie.' }),
    expires_at: Type.String({ format: 'date-time', description: 'The session ends then at the latest.' }),
    idle_expires_at: Type.String({ format: 'date-time', description: 'The session ends then unless it is used before.' }),
  },
  { $id: 'AuthSession', title: 'AuthSession', additionalProperties: false },
);
export type AuthSession = Static<typeof AuthSession>;

/** GET /auth/session with no live session cookie: a question answered, not an error (docs/auth.md). */
export const SignedOut = Type.Object(
  { signed_in: Type.Literal(false, { description: 'No session: no cookie, or it has ended (the answer then clears it).' }) },
  { $id: 'SignedOut', title: 'SignedOut', additionalProperties: false },
);
export type SignedOut = Static<typeof SignedOut>;

/** GET /auth/session's answer: the session, or that there is none (`signed_in` tells which). */
export const SessionCheck = Type.Union([ref(AuthSession), ref(SignedOut)], {
  $id: 'SessionCheck',
  title: 'SessionCheck',
  description: 'AuthSession when signed in (signed_in: true), else SignedOut.',
});
export type SessionCheck = Static<typeof SessionCheck>;

export const ChangePasswordBody = Type.Object({ current_password: Password, new_password: Password }, { additionalProperties: false });
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;

const NDateTime = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const UserToken = Type.Object(
  {
    id: Uuid,
    name: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
    expires_at: NDateTime,
    last_used_at: NDateTime,
  },
  { $id: 'UserToken', title: 'UserToken', additionalProperties: false },
);
export type UserToken = Static<typeof UserToken>;

export const CreatedUserToken = Type.Object(
  { ...UserToken.properties, token: Type.String({ description: 'The token itself: shown in this answer only.' }) },
  { $id: 'CreatedUserToken', title: 'CreatedUserToken', additionalProperties: false },
);

export const CreateUserTokenBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    expires_at: Type.Optional(Type.String({ format: 'date-time', description: 'When the token stops working; in the future.' })),
  },
  { additionalProperties: false },
);
export type CreateUserTokenBody = Static<typeof CreateUserTokenBody>;

export const OrganizationToken = Type.Object(
  { ...UserToken.properties, user: ref(UserSummary) },
  { $id: 'OrganizationToken', title: 'OrganizationToken', additionalProperties: false },
);

export const OrganizationUser = Type.Object(
  {
    ...UserSummary.properties,
    role: Role,
    deactivated_at: NDateTime,
    created_at: Type.String({ format: 'date-time', description: 'When the user joined the organization.' }),
    invitation_expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description:
        'While the person cannot sign in to the organization yet (no password, and never signed in to it by single sign-on) and an invitation is out: when the newest one expires (in the past once it has). null once they can sign in (accepting an invitation sets the password; an account from another organization has one already), when they were deactivated, or when they never were invited.',
    }),
  },
  { $id: 'OrganizationUser', title: 'OrganizationUser', additionalProperties: false },
);
export type OrganizationUser = Static<typeof OrganizationUser>;

export const UpdateOrganizationUserBody = Type.Object(
  {
    role: Type.Optional(Role),
    active: Type.Optional(Type.Boolean({ description: 'false deactivates: their sessions and tokens stop working at once.' })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateOrganizationUserBody = Static<typeof UpdateOrganizationUserBody>;

export const IdParams = Type.Object({ id: Uuid });
