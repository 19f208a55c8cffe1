import { type SqlBool, sql } from 'kysely';
import type { Executor } from '../shared/db/database.js';
import { pagedList } from '../shared/db/paged-list.js';
import type { VendorProductsTable } from '../shared/db/schema.js';
import type { Page } from '../shared/pagination.js';
import { type CatalogueProduct, searchTextOf } from './rules.js';

// The catalogue's queries: vendor_products is this folder's table; the shop and order requests call these.

export type ProductRow = VendorProductsTable;

/** Rows per INSERT: under SQLite's bound-parameter limit for these widths. */
const CHUNK = 200;

export const findVendorProduct = (ex: Executor, id: string) =>
  ex.selectFrom('vendor_products').selectAll().where('id', '=', id).executeTakeFirst();

/** A product's id by vendor and catalog number (unique: src/shared/db/migrations/0001_initial.ts). */
export const findProductIdByKey = (ex: Executor, vendorName: string, catalogNumber: string) =>
  ex
    .selectFrom('vendor_products')
    .select('id')
    .where('vendor_name', '=', vendorName)
    .where('catalog_number', '=', catalogNumber)
    .executeTakeFirst();

export async function productsByIds(ex: Executor, ids: Iterable<string>): Promise<Map<string, ProductRow>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await ex.selectFrom('vendor_products').selectAll().where('id', 'in', unique).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** Catalogue search: every word must appear in the product's name, catalog number or vendor. */
export async function listProducts(ex: Executor, filter: { q?: string; vendor?: string }, page: Page) {
  let base = ex.selectFrom('vendor_products');
  for (const word of (filter.q ?? '').toLowerCase().split(/\s+/).filter(Boolean)) {
    // An explicit ESCAPE: SQLite has no default escape character, PostgreSQL's is the same backslash.
    base = base.where(sql<SqlBool>`search_text like ${`%${escapeLike(word)}%`} escape '\\'`);
  }
  if (filter.vendor !== undefined) base = base.where('vendor_name', '=', filter.vendor);
  return pagedList(base, base.selectAll().orderBy('created_at').orderBy('id'), page);
}

const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Inserts new products and updates existing ones (same vendor and catalog number) in place, keeping their ids,
 * so re-importing a price list is safe. Returns how many were created and updated.
 */
export async function upsertProducts(
  ex: Executor,
  products: CatalogueProduct[],
  now: string,
  newId: () => string,
): Promise<{ created: number; updated: number }> {
  let created = 0;
  let updated = 0;
  for (let i = 0; i < products.length; i += CHUNK) {
    const chunk = products.slice(i, i + CHUNK);
    const existing = await ex
      .selectFrom('vendor_products')
      .select(['id', 'vendor_name', 'catalog_number'])
      .where((eb) => eb.or(chunk.map((p) => eb.and([eb('vendor_name', '=', p.vendor_name), eb('catalog_number', '=', p.catalog_number)]))))
      .execute();
    const idOf = new Map(existing.map((r) => [`${r.vendor_name}\u0000${r.catalog_number}`, r.id]));
    const inserts: ProductRow[] = [];
    for (const p of chunk) {
      const id = idOf.get(`${p.vendor_name}\u0000${p.catalog_number}`);
      if (id === undefined) {
        inserts.push({ id: newId(), ...p, search_text: searchTextOf(p), created_at: now, updated_at: now });
      } else {
        await ex
          .updateTable('vendor_products')
          .set({ ...p, search_text: searchTextOf(p), updated_at: now })
          .where('id', '=', id)
          .execute();
        updated++;
      }
    }
    if (inserts.length > 0) await ex.insertInto('vendor_products').values(inserts).execute();
    created += inserts.length;
  }
  return { created, updated };
}
