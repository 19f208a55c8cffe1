import { createHash } from 'node:crypto';
import type { TSchema } from 'typebox';
import { UserSummary } from '../../accounts/schemas.js';
import { Lab, Organization } from '../../labs/schemas.js';
import { TypeRef } from '../../types/schemas.js';
import { InstanceLocation, InventoryItem, InventoryItemInstance } from '../schemas.js';

// The shape of a stored item document (issue 24, migration 0030; docs/decisions/0015-stored-item-documents.md): a
// document is served only when it was written with the shape this version renders. Computed from the InventoryItem
// schema (the keys, their order and their types, which is what the stored text holds) and a renderer version, so
// that a new field or a renamed one needs nothing by hand, and a change in how render.ts derives a value does.

/**
 * Bump when a stored document's text changes without the schema changing: a value derived differently in
 * ../render.ts (or in the names, paths and quantities it reads), or in ../quantity-fast.ts's copy of it.
 */
export const RENDERER_VERSION = 1;

/** The named schemas an item document refers to (ref()); a $ref to any other fails loudly here, at start. */
const REFERRED: TSchema[] = [Lab, Organization, TypeRef, UserSummary, InventoryItemInstance, InstanceLocation];

// What documents a schema but never changes the text of a document.
const WORDS_ONLY = new Set(['description', 'examples', 'example', 'title', '$comment', 'deprecated']);

/** The schema with every $ref replaced by the schema it names and the words for people left out. */
function resolved(schema: unknown, named: Map<string, unknown>, seen: string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((s) => resolved(s, named, seen));
  if (schema === null || typeof schema !== 'object') return schema;
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') {
    const target = named.get(ref);
    if (target === undefined)
      throw new Error(`document shape: no schema named ${ref} (add it to REFERRED in src/inventory/stored/shape.ts)`);
    if (seen.includes(ref)) return { $ref: ref };
    return resolved(target, named, [...seen, ref]);
  }
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => !WORDS_ONLY.has(key))
      .map(([key, value]) => [key, resolved(value, named, seen)]),
  );
}

/** A short hash of the item schema (references resolved) and the renderer version. */
export function documentShape(item: TSchema, referred: TSchema[], rendererVersion: number): string {
  const named = new Map(referred.map((s) => [(s as { $id?: string }).$id ?? '', s as unknown]));
  const text = JSON.stringify({ schema: resolved(item, named), rendererVersion });
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** The shape this version renders and stores. */
export const DOCUMENT_SHAPE = documentShape(InventoryItem, REFERRED, RENDERER_VERSION);

/** The stored document when it has this version's shape; null (rendered on read, rewritten later) otherwise. */
export const currentDocument = (row: { rendered: string | null; rendered_shape: string | null }): string | null =>
  row.rendered !== null && row.rendered_shape === DOCUMENT_SHAPE ? row.rendered : null;
