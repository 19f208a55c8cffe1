import type { Executor } from '../shared/db/database.js';
import type { VendorProductsTable } from '../shared/db/schema.js';

export async function insertVendorProduct(ex: Executor, row: VendorProductsTable): Promise<void> {
  await ex.insertInto('vendor_products').values(row).execute();
}

export const findVendorProduct = (ex: Executor, id: string) =>
  ex.selectFrom('vendor_products').selectAll().where('id', '=', id).executeTakeFirst();
