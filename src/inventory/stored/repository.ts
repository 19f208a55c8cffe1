import { sql } from 'kysely';
import { labIsVisible } from '../../labs/repository.js';
import type { Actor } from '../../shared/actor.js';
import { flatMapChunks, forEachChunk } from '../../shared/db/chunks.js';
import { type Executor, isPostgres } from '../../shared/db/database.js';
import { precompiled } from '../../shared/db/precompiled.js';
import { DOCUMENT_SHAPE } from './shape.js';

// The stored item documents (inventory_items.rendered) and what they are kept by (migration 0017;
// docs/decisions/0015-stored-item-documents.md). Written in the transaction of every change to an item
// (./documents.ts), read by GET and the list.

/**
 * Writes the items' documents, of this version's shape (./shape.ts): 200 a statement (an UPDATE from a VALUES list,
 * which both databases take). With `onlyMissing`, an item that has a document of this shape keeps it.
 */
export async function setDocuments(ex: Executor, docs: { id: string; rendered: string }[], onlyMissing = false): Promise<void> {
  await forEachChunk(
    docs,
    async (chunk) => {
      const values = sql.join(chunk.map((d) => sql`(${d.id}, ${d.rendered})`));
      const missing = onlyMissing ? sql` and ${missingOrOtherShape}` : sql``;
      if (isPostgres(ex))
        await sql`update inventory_items set rendered = v.rendered, rendered_shape = ${DOCUMENT_SHAPE}
          from (values ${values}) as v (id, rendered) where inventory_items.id = v.id${missing}`.execute(ex);
      else
        await sql`update inventory_items set rendered = v.column2, rendered_shape = ${DOCUMENT_SHAPE}
          from (values ${values}) as v where inventory_items.id = v.column1${missing}`.execute(ex);
    },
    200,
  );
}

/** An item whose document is to be written: none stored, or one of another shape (or of none: before migration 0030). */
const missingOrOtherShape = sql<boolean>`(inventory_items.rendered is null or inventory_items.rendered_shape is null
  or inventory_items.rendered_shape <> ${DOCUMENT_SHAPE})`;

// GET's one statement, compiled once per role shape (src/shared/db/precompiled.ts).
const documentQuery = precompiled((ex, role, id: string, organizationId: string, userId: string) =>
  ex
    .selectFrom('inventory_items')
    .select(['version', 'rendered', 'rendered_shape'])
    .where('id', '=', id)
    .where((eb) => eb.exists(labIsVisible(ex, { organizationId, userId, role: role as Actor['role'] }, 'inventory_items.lab_id'))),
);

/**
 * The visible item's version and stored document with its shape (./shape.ts currentDocument tells whether it may be
 * served), or undefined when the caller cannot see it.
 */
export const visibleDocument = async (ex: Executor, actor: Actor, id: string) =>
  (await documentQuery(ex, actor.role === 'admin' ? 'admin' : 'member', id, actor.organizationId, actor.userId))[0];

/**
 * The next `limit` items after the cursor in (created_at, id) order (the page index), and which have no document of
 * this version's shape.
 */
export const itemsAfter = (ex: Executor, cursor: { createdAt: string; id: string } | null, limit: number) => {
  let q = ex.selectFrom('inventory_items').select(['id', 'created_at', missingOrOtherShape.as('missing')]);
  if (cursor) q = q.where((eb) => eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(cursor.createdAt, cursor.id)));
  return q.orderBy('created_at').orderBy('id').limit(limit).execute();
};

/** Locks the items for a rewrite of their documents (PostgreSQL: a write to one of them waits, then renders anew). */
export async function lockItems(ex: Executor, ids: string[]): Promise<void> {
  if (isPostgres(ex) && ids.length > 0)
    await flatMapChunks(ids, (chunk) =>
      ex.selectFrom('inventory_items').select('id').where('id', 'in', chunk).orderBy('id').forUpdate().execute(),
    );
}

/** The items without a document of this version's shape. */
export async function countMissingDocuments(ex: Executor): Promise<number> {
  const r = await ex
    .selectFrom('inventory_items')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where(missingOrOtherShape)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function forgetAllDocuments(ex: Executor): Promise<void> {
  await ex.updateTable('inventory_items').set({ rendered: null, rendered_shape: null }).where('rendered', 'is not', null).execute();
}

export const documentsAppUrl = async (ex: Executor): Promise<string | null> =>
  (await ex.selectFrom('inventory_document_settings').select('app_url').where('id', '=', 1).executeTakeFirst())?.app_url ?? null;

/** The shape the last complete rebuild brought every document to (null: none finished since migration 0030). */
export const documentsShape = async (ex: Executor): Promise<string | null> =>
  (await ex.selectFrom('inventory_document_settings').select('shape').where('id', '=', 1).executeTakeFirst())?.shape ?? null;

/** Records that every document has this version's shape (the settings row exists: the APP_URL is recorded first). */
export async function setDocumentsShape(ex: Executor): Promise<void> {
  await ex.updateTable('inventory_document_settings').set({ shape: DOCUMENT_SHAPE }).where('id', '=', 1).execute();
}

export async function setDocumentsAppUrl(ex: Executor, appUrl: string): Promise<void> {
  await ex
    .insertInto('inventory_document_settings')
    .values({ id: 1, app_url: appUrl })
    .onConflict((oc) => oc.column('id').doUpdateSet({ app_url: appUrl }))
    .execute();
}

// What a change elsewhere (a lab's, a type's or a person's name) re-renders: the items showing it.

export const itemIdsOfLabs = (ex: Executor, labIds: string[]) =>
  flatMapChunks(labIds, (chunk) => ex.selectFrom('inventory_items').select('id').where('lab_id', 'in', chunk).execute()).then((r) =>
    r.map((x) => x.id),
  );

/** A lab's items without an active instance (at a lab's flip to instances, the ones whose document changes). */
export const itemIdsWithoutInstances = (ex: Executor, labId: string) =>
  ex
    .selectFrom('inventory_items')
    .select('id')
    .where('lab_id', '=', labId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('inventory_item_instances')
            .select('inventory_item_instances.id')
            .whereRef('inventory_item_instances.item_id', '=', 'inventory_items.id')
            .where('inventory_item_instances.archived_at', 'is', null),
        ),
      ),
    )
    .execute()
    .then((rows) => rows.map((r) => r.id));

export const itemIdsOfTypes = (ex: Executor, typeIds: string[]) =>
  flatMapChunks(typeIds, (chunk) => ex.selectFrom('inventory_items').select('id').where('type_id', 'in', chunk).execute()).then((r) =>
    r.map((x) => x.id),
  );

export const itemIdsOfUsers = (ex: Executor, userIds: string[]) =>
  flatMapChunks(userIds, (chunk) =>
    ex
      .selectFrom('inventory_items')
      .select('id')
      .where((eb) => eb.or([eb('added_by', 'in', chunk), eb('updated_by', 'in', chunk)]))
      .execute(),
  ).then((r) => r.map((x) => x.id));
