import { type RawBuilder, sql } from 'kysely';
import { type Executor, isPostgres } from '../shared/db/database.js';
import { sumQuantities } from '../shared/decimal.js';

// What the control-area meter and the placement checks read of the holdings (./holdings-repository.ts keeps them):
// a few totals per location, and, only for the holdings that must be named container by container (an amount
// nobody can know, a conflict), the items that make them up and then those items' containers there.

const CHUNK = 500;

/**
 * What these locations hold: each one's rows with statements, summed per unit size and statements (over the
 * storage attributes) in the database (PostgreSQL adds the decimals; SQLite hands them over to be added exactly
 * here). Per location, so that a control area's sums can be moved by what one location changed
 * (src/inventory/area-holdings.ts).
 */
export async function holdingsAt(
  ex: Executor,
  locationIds: readonly string[],
): Promise<{ location_id: string; unit_size: string; hazard_codes: string; containers: number; quantity: string }[]> {
  const pg = isPostgres(ex);
  const ids = [...new Set(locationIds)];
  const out = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await ex
      .selectFrom('location_holdings')
      .select((eb) => [
        'location_id',
        'unit_size',
        'hazard_codes',
        eb.fn.sum<number | string>('containers').as('containers'),
        (pg ? sql<string>`sum(cast(quantity as numeric))::text` : sql<string>`group_concat(quantity, ' ')`).as('quantity'),
      ])
      .where('location_id', 'in', ids.slice(i, i + CHUNK))
      .where('containers', '>', 0)
      .where('hazard_codes', '<>', '')
      .groupBy(['location_id', 'unit_size', 'hazard_codes'])
      .execute();
    for (const r of rows) out.push({ ...r, containers: Number(r.containers), quantity: pg ? r.quantity : sumQuantities(r.quantity) });
  }
  return out;
}

/**
 * Whether a location's holdings changed: how many rows it has (`n`) and the sum of the rows' versions (`v`), as two
 * columns for a caller's statement over locations (`location`: its id column; src/locations/repository.ts
 * subtreeStamped). Every write of a row adds to its version and rows are never deleted while their location stands
 * (migration 0045), so the pair only grows; src/inventory/area-holdings.ts keys what it remembers by the sums.
 * Correlated per location, so that both databases read each location's rows through the primary key (an IN over
 * the subtree let PostgreSQL scan the whole table).
 */
export const holdingsStampColumns = (location: RawBuilder<unknown>): RawBuilder<unknown> => sql`
  (SELECT count(*) FROM location_holdings h WHERE h.location_id = ${location}) AS n,
  (SELECT coalesce(sum(h.version), 0) FROM location_holdings h WHERE h.location_id = ${location}) AS v`;

export interface HeldContainer {
  instance_id: string;
  item_id: string;
  location_id: string;
  name: string;
  type_id: string | null;
  quantity: string;
  unit_size: string | null;
}

/** The active containers at these locations of these items. */
async function containersOfItemsAt(ex: Executor, locationIds: readonly string[], itemIds: readonly string[]): Promise<HeldContainer[]> {
  const out: HeldContainer[] = [];
  const locations = [...new Set(locationIds)];
  for (let j = 0; j < itemIds.length; j += CHUNK)
    for (let i = 0; i < locations.length; i += CHUNK) {
      const rows = await ex
        .selectFrom('inventory_item_instances as i')
        .innerJoin('inventory_items as it', 'it.id', 'i.item_id')
        .select(['i.id as instance_id', 'i.item_id', 'i.location_id', 'it.name', 'it.type_id', 'i.quantity', 'it.unit_size'])
        .where('i.item_id', 'in', itemIds.slice(j, j + CHUNK))
        .where('i.location_id', 'in', locations.slice(i, i + CHUNK))
        .where('i.archived_at', 'is', null)
        .execute();
      for (const r of rows) out.push({ ...r, location_id: r.location_id! });
    }
  // In a stable order (sorted here: an ORDER BY would let SQLite walk the table in id order instead of the index).
  return out.sort((a, b) => (a.instance_id < b.instance_id ? -1 : a.instance_id > b.instance_id ? 1 : 0));
}

/**
 * The items that make up these holdings at these locations, per location, with their containers there and their
 * names: what the meter names when a holding's amount is unknown, read from the running totals without reading a
 * container.
 */
export async function itemsOfHoldings(
  ex: Executor,
  locationIds: readonly string[],
  holdings: readonly { unit_size: string; hazard_codes: string }[],
): Promise<{ location_id: string; unit_size: string; hazard_codes: string; item_id: string; name: string; containers: number }[]> {
  if (holdings.length === 0) return [];
  const ids = [...new Set(locationIds)];
  const out = [];
  // All holdings in one statement: each (location, unit size, statements) is a range of the primary key.
  for (let j = 0; j < holdings.length; j += CHUNK / 2)
    for (let i = 0; i < ids.length; i += CHUNK) {
      const pairs = holdings.slice(j, j + CHUNK / 2);
      const rows = await ex
        .selectFrom('location_holding_items as hi')
        .innerJoin('inventory_items as it', 'it.id', 'hi.item_id')
        .select((eb) => [
          'hi.location_id',
          'hi.unit_size',
          'hi.hazard_codes',
          'hi.item_id',
          'it.name',
          eb.fn.sum<number | string>('hi.containers').as('containers'),
        ])
        .where('hi.location_id', 'in', ids.slice(i, i + CHUNK))
        .where((eb) =>
          eb(
            eb.refTuple('hi.unit_size', 'hi.hazard_codes'),
            'in',
            pairs.map((h) => eb.tuple(h.unit_size, h.hazard_codes)),
          ),
        )
        .where('hi.containers', '>', 0)
        .groupBy(['hi.location_id', 'hi.unit_size', 'hi.hazard_codes', 'hi.item_id', 'it.name'])
        .execute();
      for (const r of rows) out.push({ ...r, containers: Number(r.containers) });
    }
  return out;
}

/** The kinds of containers stored at a location (statements and storage attributes), without reading them. */
export function profilesAt(ex: Executor, locationId: string): Promise<{ hazard_codes: string; storage: string }[]> {
  return ex
    .selectFrom('location_holdings')
    .select(['hazard_codes', 'storage'])
    .distinct()
    .where('location_id', '=', locationId)
    .where('containers', '>', 0)
    .execute();
}

/** The active containers at a location of one kind (statements and storage attributes): those a conflict names. */
export async function containersOfProfile(
  ex: Executor,
  locationId: string,
  p: { hazard_codes: string; storage: string },
): Promise<HeldContainer[]> {
  const rows = await ex
    .selectFrom('location_holding_items')
    .select('item_id')
    .distinct()
    .where('location_id', '=', locationId)
    .where('hazard_codes', '=', p.hazard_codes)
    .where('storage', '=', p.storage)
    .where('containers', '>', 0)
    .execute();
  return containersOfItemsAt(
    ex,
    [locationId],
    rows.map((r) => r.item_id),
  );
}

/** Which of these items have an active container at these locations. */
export async function itemsHeldAt(ex: Executor, locationIds: readonly string[], itemIds: readonly string[]): Promise<Set<string>> {
  const held = new Set<string>();
  const items = [...new Set(itemIds)];
  for (let j = 0; j < items.length; j += CHUNK) {
    const rows = await ex
      .selectFrom('inventory_item_instances')
      .select('item_id')
      .distinct()
      .where('item_id', 'in', items.slice(j, j + CHUNK))
      .where('location_id', 'in', [...new Set(locationIds)])
      .where('archived_at', 'is', null)
      .execute();
    for (const r of rows) held.add(r.item_id);
  }
  return held;
}
