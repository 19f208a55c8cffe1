import { type Static, Type } from 'typebox';
import { HAZARD_CLASSES } from '../../hazards/ghs-classes.js';
import { PageQuery } from '../../shared/pagination.js';
import { DateString } from '../../shared/schemas.js';
import { SORTS } from './rules.js';

// Search and filters (docs/product.md §12, ./rules.ts). Without any of the new
// parameters, GET /inventory-items is the contract's list: lab_id and page (and per_page) only.

export const ItemListQuery = Type.Object({
  lab_id: Type.Optional(Type.String({ description: 'Only items of this lab. Without it, every lab the token may see.' })),
  q: Type.Optional(
    Type.String({
      maxLength: 200,
      description:
        'Words found in the name, vendor, catalog number, CAS number, serial number or lot numbers (the item\'s or its active instances\'): a word of 3 characters or more anywhere, inside words too ("ethyl" finds "Dimethyl sulfoxide"), a shorter one at the start of a word. Every word must match; dashes and punctuation are ignored ("7732-18" finds "7732-18-5"); case and accents do not matter. Without lab_id, every lab the token may see is searched.',
    }),
  ),
  type_id: Type.Optional(Type.String({ description: 'Only items of this type.' })),
  location_id: Type.Optional(
    Type.String({ description: 'Only items with an active instance at this location or anywhere below it (labs that use instances).' }),
  ),
  expiring_before: Type.Optional({
    ...DateString,
    description: 'Only items with an active instance, or a legacy expiration_date, that expires before this date (YYYY-MM-DD).',
  }),
  below_minimum: Type.Optional(
    Type.Boolean({ description: 'true: only items whose quantity is below their minimum quantity. false: no filter.' }),
  ),
  hazard_class: Type.Optional(
    Type.Unsafe<string>({
      type: 'string',
      enum: HAZARD_CLASSES.map((k) => k.id),
      description:
        "Only items whose hazard statements (their own, else their type's) give this GHS hazard class, e.g. flammable-liquid (GET /hazards/classes, docs/hazards.md).",
    }),
  ),
  sort: Type.Optional(
    Type.Union(
      SORTS.map((s) => Type.Literal(s)),
      {
        description:
          'name, expiration_date (the soonest expiry; items without one come last) or updated_at; a leading - for descending. Ties go by creation time, then id, in the same direction. Default: creation time, then id.',
      },
    ),
  ),
  ...PageQuery,
});
export type ItemListQuery = Static<typeof ItemListQuery>;
