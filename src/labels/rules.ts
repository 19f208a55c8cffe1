import { randomBytes } from 'node:crypto';

// What a label code is (docs/labels.md, docs/product.md §14 "Codes"): 10 characters of 32 that cannot be misread
// for one another (no 0/O, no 1/I), drawn at random: 50 bits, so nobody guesses a neighbour's code, and a person
// can still read one aloud or type it. Migration 0031 repeats the alphabet and length for the backfill.

export const CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const CODE_LENGTH = 10;

/** A fresh random code; uniqueness is the table's primary key (src/labels/repository.ts retries a clash). */
export function newCode(): string {
  const bytes = randomBytes(CODE_LENGTH);
  let code = '';
  // 256 is a multiple of 32: the low five bits of a random byte are uniform over the alphabet.
  for (const b of bytes) code += CODE_ALPHABET[b & 31];
  return code;
}

const SHAPE = new RegExp(`^[${CODE_ALPHABET}]{${CODE_LENGTH}}$`);

/** A code as a person or a scanner may send it, in its stored form (upper case, spaces and dashes dropped); null when it cannot be one. */
export function normalizeCode(raw: string): string | null {
  const code = raw.trim().toUpperCase().replace(/[\s-]/g, '');
  return SHAPE.test(code) ? code : null;
}

/** Where a code's thing is shown in the web application (docs/web.md); /app/c/{code} replaces itself with it. */
export function appPathOf(kind: 'instance' | 'location' | 'item', t: { labId: string; itemId: string | null; targetId: string }): string {
  if (kind === 'location') return `/app/locations?lab=${t.labId}&location=${t.targetId}`;
  if (kind === 'instance') return `/app/inventory/items/${t.itemId}?instance=${t.targetId}`;
  return `/app/inventory/items/${t.targetId}`;
}

/** The path of a location from the root, as a label prints it. */
export function locationPath(names: string[]): string {
  return names.join(' / ');
}
