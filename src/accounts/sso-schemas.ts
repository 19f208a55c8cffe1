import { type Static, Type } from 'typebox';
import { Uuid } from '../shared/schemas.js';

// Single sign-on (docs/auth.md, Single sign-on): an organization's settings as org admins read and write them, and
// the query strings of the browser flow.

const Domain = Type.String({ minLength: 1, maxLength: 253, description: 'An e-mail domain such as `lab.example.org`.' });

export const OrganizationSso = Type.Object(
  {
    issuer: Type.String({ description: "The OpenID provider's issuer URL; its discovery document is read from there." }),
    client_id: Type.String(),
    client_secret_set: Type.Boolean({ description: 'Whether a client secret is stored. The secret itself is never returned.' }),
    allowed_domains: Type.Array(Type.String(), {
      description: 'E-mail domains whose people get an account at their first sign-in. Existing members sign in whatever their domain.',
    }),
    enabled: Type.Boolean(),
    redirect_uri: Type.String({ description: 'The callback to register at the provider: `APP_URL` + `/auth/sso/callback`.' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'OrganizationSso', title: 'OrganizationSso', additionalProperties: false },
);
export type OrganizationSso = Static<typeof OrganizationSso>;

export const PutOrganizationSsoBody = Type.Object(
  {
    issuer: Type.String({ minLength: 1, maxLength: 2000 }),
    client_id: Type.String({ minLength: 1, maxLength: 500 }),
    client_secret: Type.Optional(
      Type.String({ minLength: 1, maxLength: 2000, description: 'Required the first time; left out, the stored secret is kept.' }),
    ),
    allowed_domains: Type.Array(Domain, { maxItems: 100 }),
    enabled: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type PutOrganizationSsoBody = Static<typeof PutOrganizationSsoBody>;

export const SsoStartQuery = Type.Object(
  {
    organization: Type.Optional(Uuid),
    email: Type.Optional(
      Type.String({ minLength: 3, maxLength: 320, description: "The organization is the one whose SSO allows this e-mail's domain." }),
    ),
    return_to: Type.Optional(
      Type.String({ maxLength: 2000, description: 'A path on this server (`/app/…`) to land on after signing in.' }),
    ),
  },
  { additionalProperties: false },
);
export type SsoStartQuery = Static<typeof SsoStartQuery>;

export const SsoCallbackQuery = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 4000 })),
    state: Type.Optional(Type.String({ maxLength: 4000 })),
    error: Type.Optional(Type.String({ maxLength: 4000 })),
  },
  // Providers add parameters of their own (iss, session_state, error_description): openid-client reads them.
  { additionalProperties: true },
);

export const SsoDomain = Type.Object(
  {
    domain: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('verified')], {
      description: 'Only a verified domain routes sign-in by e-mail and gives its people an account at their first sign-in.',
    }),
    verified_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    verified_by: Type.Union([Type.Literal('dns'), Type.Literal('operator'), Type.Null()], {
      description: "`dns`: the TXT record was found; `operator`: the installation's operator approved the claim.",
    }),
    txt_name: Type.String({ description: 'The name of the TXT record that proves the domain.' }),
    txt_value: Type.String({ description: 'The value to publish there.' }),
  },
  { $id: 'SsoDomain', title: 'SsoDomain', additionalProperties: false },
);
export type SsoDomain = Static<typeof SsoDomain>;

export const SsoDomainParams = Type.Object({ domain: Type.String({ minLength: 1, maxLength: 253 }) }, { additionalProperties: false });
export const SsoLinkState = Type.Object(
  {
    available: Type.Boolean({ description: 'Whether the organization the session acts in has single sign-on enabled.' }),
    linked: Type.Boolean({ description: "Whether the signed-in person's account is linked to its provider." }),
  },
  { $id: 'SsoLinkState', title: 'SsoLinkState', additionalProperties: false },
);

export const SsoLinkStarted = Type.Object(
  { url: Type.String({ description: "The provider's authorization URL: send the browser there." }) },
  { $id: 'SsoLinkStarted', title: 'SsoLinkStarted', additionalProperties: false },
);
