import { Type } from 'typebox';

// The `q` of the pickers' lists (GET /labs, GET /types, GET /organization/users; docs/api.md): text found anywhere
// inside a few short columns. A plain LIKE, no index: these tables are small and bounded per organization (a few
// labs, their types, the organization's people), and every query filters by organization or lab before the LIKE.
// The large lists (items, order requests, the catalogue) search their own way.

/** Longest `q`, as on GET /inventory-items and GET /order-requests (src/inventory/schemas.ts). */
export const MAX_Q_LENGTH = 200;

/** The optional `q` query parameter: a string of at most MAX_Q_LENGTH characters, longer is 422. */
export const ContainsQuery = (description: string) =>
  Type.Optional(Type.String({ maxLength: MAX_Q_LENGTH, description: `${description} Blank filters nothing.` }));

/** The text to look for: trimmed; blank is no filter (undefined). */
export const containsTextOf = (q: string | undefined): string | undefined => {
  const text = q?.trim();
  return text ? text : undefined;
};

/** Lower-cased the way the application lower-cases stored keys (src/types/repository.ts, typeNameKey). */
export const lowerText = (text: string): string => text.toLocaleLowerCase('en-US');

/**
 * The LIKE pattern for "contains the text", lower-cased: `%`, `_` and the escape itself match only themselves. The
 * repositories compare it with the lower-cased column and ESCAPE '\\' (SQLite has no default escape character).
 * SQLite's lower() folds ASCII letters only, PostgreSQL's every letter: case-insensitive for unaccented letters on both.
 */
export const containsPattern = (text: string): string => `%${lowerText(text).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
