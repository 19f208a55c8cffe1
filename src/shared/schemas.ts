import { type Static, type TSchema, type TUnsafe, Type } from 'typebox';
import { DECIMAL_PATTERN } from './decimal.js';

// Schema primitives shared by every folder, the money shape and the error body. The public resources live with
// their folders (labs/schemas.ts, inventory/schemas.ts, …): one declaration validates input, serializes output
// (fast-json-stringify writes only declared properties) and becomes the OpenAPI document.
//
// A resource has a name: its `$id`, under which the server registers it (app.addSchema, src/server/openapi.ts) and
// the document lists it in components.schemas. Responses and other resources point at it with ref(), so the
// document declares each resource once and generated clients get one named type per resource.

/** A `$ref` to a named schema, typed as that schema (TypeBox's own Ref is typed unknown outside a module). */
export function ref<T extends TSchema>(schema: T): TUnsafe<Static<T>> {
  const id = (schema as { $id?: unknown }).$id;
  if (typeof id !== 'string') throw new Error('ref() needs a schema with an $id');
  return Type.Unsafe<Static<T>>({ $ref: id });
}

// A plain e-mail address (local@domain.tld): none of what makes an address header say more than one thing (a comma
// lists another recipient, angle brackets and quotes start a display name or a quoted part, CR/LF another header),
// no whitespace inside, no control or bidirectional formatting characters. Surrounding spaces are trimmed later.
const EMAIL_CHAR = '[^\\s@",<>()[\\]\\\\;:\\u0000-\\u001f\\u007f-\\u009f\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\ufeff]';
export const EMAIL_PATTERN = `^\\s*${EMAIL_CHAR}+@${EMAIL_CHAR}+\\.${EMAIL_CHAR}+\\s*$`;
export const EMAIL_RULE =
  'must be a plain e-mail address such as ada@example.org: no spaces, commas, quotes, angle brackets or control characters';
const EMAIL_RE = new RegExp(EMAIL_PATTERN, 'u');
export const isEmailAddress = (text: string): boolean => EMAIL_RE.test(text);
export const EmailAddress = Type.String({ minLength: 1, maxLength: 320, pattern: EMAIL_PATTERN });

// An item's web page is shown as a link: only http(s) addresses are stored, so a `javascript:` or `data:` address can
// never run in whoever follows it (docs/api.md). Empty clears the field, like null.
export const WEB_PAGE_PATTERN = '^$|^[Hh][Tt][Tt][Pp][Ss]?://[^\\s]+$';
export const WEB_PAGE_RULE = 'must be a web address starting with http:// or https://';
const WEB_PAGE_RE = new RegExp(WEB_PAGE_PATTERN, 'u');
export const isWebPage = (text: string): boolean => WEB_PAGE_RE.test(text);
export const WebPage = Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 2048, pattern: WEB_PAGE_PATTERN });

export const Uuid = Type.String({ format: 'uuid' });
export const DateString = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
export const DateTime = Type.String({ format: 'date-time' });
export const DecimalString = Type.String({ pattern: DECIMAL_PATTERN, description: 'non-negative decimal string, e.g. "12.5"' });

const nullable = <T>(schema: Record<string, unknown> & { type: string }) =>
  Type.Unsafe<T | null>({ ...schema, type: [schema.type, 'null'] });
export const NString = nullable<string>({ type: 'string' });
export const NDate = nullable<string>({ type: 'string', format: 'date' });
export const NUuid = nullable<string>({ type: 'string', format: 'uuid' });
export const orNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const Money = Type.Object(
  {
    amount: Type.String({ description: 'integer string in the currency\'s minor units (USD "1250" = 12.50)' }),
    currency: Type.String({ description: 'ISO 4217 code' }),
  },
  { $id: 'Money', title: 'Money', additionalProperties: false },
);
export type Money = Static<typeof Money>;

export const ErrorBody = Type.Object(
  {
    message: Type.String(),
    code: Type.String(),
    request_id: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }, { additionalProperties: false }))),
    allowed: Type.Optional(Type.Array(Type.String())),
    import_errors: Type.Optional(
      Type.Array(
        Type.Object(
          { line: Type.Integer(), column: Type.Union([Type.String(), Type.Null()]), code: Type.String(), message: Type.String() },
          { additionalProperties: false },
        ),
        { description: 'A refused CSV import: the first 1,000 problems, as its dry run lists them (docs/csv.md).' },
      ),
    ),
    error_count: Type.Optional(Type.Integer({ description: 'A refused CSV import: how many problems in all.' })),
    findings: Type.Optional(
      // A $ref by name (shared/ imports no domain folder): inventory/placement-schemas.ts declares it.
      Type.Unsafe<Record<string, unknown>>({
        $ref: 'PlacementCheck',
        description:
          '409 limit_exceeded / segregation_conflict: what the placement checks found, as POST /placement-checks answers (docs/safety.md).',
      }),
    ),
  },
  // Not `Error`: generated clients name a type after it, and one named Error shadows the language's own.
  { $id: 'ErrorResponse', title: 'ErrorResponse', additionalProperties: false },
);

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed request: a body that is not JSON, or credential headers that disagree (two different tokens)',
  401: 'Missing, unknown or revoked access token',
  403: "Not allowed: the token's role, a tenant token on shop fulfilment or an operator token anywhere else, or a session's failed CSRF check",
  404: 'Not found, or not visible to this token',
  409: "Conflicts with the resource's state",
  412: 'If-Match does not match the current ETag',
  413: 'Body too large',
  415: 'Body is not JSON',
  422: 'Validation failed',
  429: 'Rate limited; see Retry-After',
  503: 'Unavailable for now; retry after Retry-After seconds',
};

/** The error body as the answer of one status, described. */
export const errorResponse = (status: number): TSchema =>
  Type.Unsafe<Static<typeof ErrorBody>>({ $ref: 'ErrorResponse', description: ERROR_DESCRIPTIONS[status] });

/** Response map for a route: its success schema plus the documented error bodies. */
export function responses(success: Record<number, TSchema>, errors: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = { ...success };
  for (const status of [...errors, 429]) out[status] = errorResponse(status);
  return out;
}
