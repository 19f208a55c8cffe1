import type { SystemActor } from '../shared/actor.js';
import type { ServiceDeps } from '../shared/deps.js';
import { notFound, validation } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Page } from '../shared/pagination.js';
import { nowIso } from '../shared/time.js';
import { renderProduct } from './render.js';
import * as repo from './repository.js';
import type { CatalogueProduct } from './rules.js';
import type { VendorProduct } from './schemas.js';

// The shop's catalogue: vendor products, the same for every organization, so reading it needs no
// tenant (any signed-in caller may browse it) and loading it is an administrator's command (src/cli/shop.ts).

export async function listProducts(deps: ServiceDeps, filter: { q?: string; vendor?: string }, page: Page) {
  const { total, rows } = await repo.listProducts(deps.db, filter, page);
  return { total, products: rows.map(renderProduct) };
}

export async function getProduct(deps: ServiceDeps, id: string): Promise<VendorProduct> {
  const row = await repo.findVendorProduct(deps.db, id);
  if (!row) throw notFound('product');
  return renderProduct(row);
}

/**
 * Loads a catalogue in one transaction (all or nothing), reporting progress per chunk. Rows are checked by the
 * caller first (parseCatalogueRow), so a bad file changes nothing. The catalogue is the installation's (the command
 * line's), so only the system loads it.
 */
export async function importCatalogue(
  deps: ServiceDeps,
  _by: SystemActor,
  products: CatalogueProduct[],
  onProgress: (done: number) => void = () => undefined,
): Promise<{ created: number; updated: number }> {
  const dupes = new Map<string, number>();
  for (const p of products) {
    const k = `${p.vendor_name}\u0000${p.catalog_number}`;
    dupes.set(k, (dupes.get(k) ?? 0) + 1);
  }
  const twice = [...dupes].filter(([, n]) => n > 1).map(([k]) => k.replace('\u0000', ' '));
  if (twice.length > 0)
    throw validation([{ field: 'catalog_number', message: `listed more than once for the same vendor: ${twice.slice(0, 10).join('; ')}` }]);
  return deps.db.transaction().execute(async (trx) => {
    let created = 0;
    let updated = 0;
    const now = nowIso();
    const STEP = 1000;
    for (let i = 0; i < products.length; i += STEP) {
      const r = await repo.upsertProducts(trx, products.slice(i, i + STEP), now, newId);
      created += r.created;
      updated += r.updated;
      onProgress(Math.min(i + STEP, products.length));
    }
    return { created, updated };
  });
}
