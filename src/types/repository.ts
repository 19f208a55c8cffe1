import { type SqlBool, sql } from 'kysely';
import { labsByIds, visibleLabIds } from '../labs/repository.js';
import type { Actor } from '../shared/actor.js';
import { containsPattern } from '../shared/contains-text.js';
import type { Executor } from '../shared/db/database.js';
import { pagedList } from '../shared/db/paged-list.js';
import type { TypesTable } from '../shared/db/schema.js';
import type { Page } from '../shared/pagination.js';
import type { InventoryType, TypeRef } from './schemas.js';

/** Case-insensitive exact match key; computed in JS so it folds Unicode the same way on both databases. */
export const typeNameKey = (name: string): string => name.trim().toLocaleLowerCase('en-US');

/** GET /types' filters: `name` is the exact name, `q` text inside it (trimmed, not blank; src/shared/contains-text.ts). */
export interface TypeFilter {
  labId?: string | undefined;
  name?: string | undefined;
  q?: string | undefined;
}

export async function listVisibleTypes(ex: Executor, actor: Actor, filter: TypeFilter, page: Page) {
  let base = ex.selectFrom('types').where('types.lab_id', 'in', visibleLabIds(ex, actor));
  if (filter.labId) base = base.where('types.lab_id', '=', filter.labId);
  if (filter.name !== undefined) base = base.where('types.name_key', '=', typeNameKey(filter.name));
  // A LIKE over the visible labs' types, few per lab (src/shared/contains-text.ts). name_key is lower-cased in
  // JavaScript (typeNameKey), like the pattern, so here case folding is the same for every letter on both databases.
  const q = filter.q;
  if (q !== undefined) base = base.where(sql<SqlBool>`types.name_key like ${containsPattern(q)} escape '\\'`);
  const { total, rows } = await pagedList(
    base,
    base.select(['types.id', 'types.name', 'types.lab_id']).orderBy('types.created_at').orderBy('types.id'),
    page,
  );
  const labs = await labsByIds(
    ex,
    rows.map((r) => r.lab_id),
  );
  const types: InventoryType[] = rows.map((r) => ({ id: r.id, name: r.name, lab: labs.get(r.lab_id)! }));
  return { total, types };
}

export async function typeRefsByIds(ex: Executor, ids: Iterable<string | null>): Promise<Map<string, TypeRef>> {
  const unique = [...new Set([...ids].filter((x): x is string => x !== null))];
  const out = new Map<string, TypeRef>();
  if (unique.length === 0) return out;
  const rows = await ex.selectFrom('types').select(['id', 'name']).where('id', 'in', unique).execute();
  for (const r of rows) out.set(r.id, r);
  return out;
}

export const findTypeInLab = (ex: Executor, labId: string, typeId: string) =>
  ex.selectFrom('types').selectAll().where('id', '=', typeId).where('lab_id', '=', labId).executeTakeFirst();

export const findTypeByKey = (ex: Executor, labId: string, nameKey: string) =>
  ex.selectFrom('types').selectAll().where('lab_id', '=', labId).where('name_key', '=', nameKey).executeTakeFirst();

export async function insertType(ex: Executor, row: TypesTable): Promise<void> {
  await ex.insertInto('types').values(row).execute();
}

export const findVisibleType = (ex: Executor, actor: Actor, id: string) =>
  ex.selectFrom('types').selectAll().where('id', '=', id).where('lab_id', 'in', visibleLabIds(ex, actor)).executeTakeFirst();

export async function renameType(ex: Executor, id: string, name: string, now: string): Promise<void> {
  await ex
    .updateTable('types')
    .set({ name, name_key: typeNameKey(name), updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** How many items and order requests still use the type (a type in use cannot be deleted). */
export async function typeUsage(ex: Executor, id: string): Promise<{ items: number; orders: number }> {
  const [items, orders] = await Promise.all([
    ex
      .selectFrom('inventory_items')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('type_id', '=', id)
      .executeTakeFirstOrThrow(),
    ex
      .selectFrom('order_requests')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('type_id', '=', id)
      .executeTakeFirstOrThrow(),
  ]);
  return { items: Number(items.n), orders: Number(orders.n) };
}

/** Returns false when another transaction deleted it first. */
export async function deleteType(ex: Executor, id: string): Promise<boolean> {
  const r = await ex.deleteFrom('types').where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

/** Every type of a lab, by name key (an inventory import finds types by name, src/inventory/csv/import.ts). */
export const typesOfLab = (ex: Executor, labId: string) =>
  ex.selectFrom('types').select(['id', 'name', 'name_key']).where('lab_id', '=', labId).execute();

/** A lab's types by name, each with how many items and order requests use it (GET /labs/{id}/type-usage). */
export async function pageTypeUsage(ex: Executor, labId: string, page: Page) {
  const base = ex.selectFrom('types').where('types.lab_id', '=', labId);
  const { total, rows } = await pagedList(
    base,
    base
      .select((eb) => [
        'types.id',
        'types.name',
        eb
          .selectFrom('inventory_items')
          .select((c) => c.fn.countAll<string | number>().as('n'))
          .whereRef('inventory_items.type_id', '=', 'types.id')
          .as('items'),
        eb
          .selectFrom('order_requests')
          .select((c) => c.fn.countAll<string | number>().as('n'))
          .whereRef('order_requests.type_id', '=', 'types.id')
          .as('order_requests'),
      ])
      .orderBy('types.name_key')
      .orderBy('types.id'),
    page,
  );
  return {
    total,
    usage: rows.map((r) => ({ id: r.id, name: r.name, items: Number(r.items ?? 0), order_requests: Number(r.order_requests ?? 0) })),
  };
}
