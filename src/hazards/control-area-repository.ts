import { type RawBuilder, sql } from 'kysely';
import { type Executor, isPostgres } from '../shared/db/database.js';
import type { ControlAreasTable, CorrosiveKind, StorageSubjectKind } from '../shared/db/schema.js';
import { type HoldingsScope, trackHoldings } from './holdings-repository.js';

// control_areas and storage_attributes (migration 0037), owned by src/hazards/.

export const findControlArea = (ex: Executor, locationId: string) =>
  ex.selectFrom('control_areas').selectAll().where('location_id', '=', locationId).executeTakeFirst();

/** What a control area's row holds that its limits are worked out from (src/hazards/control-area.ts limitsOfArea). */
export type AreaRow = Pick<ControlAreasTable, 'location_id' | 'sprinklered' | 'cabinets' | 'limits'>;

/** The control areas among these locations (a location's ancestors, to find the areas a placement falls in). */
export async function controlAreasAmong(ex: Executor, locationIds: readonly string[]): Promise<ControlAreasTable[]> {
  if (locationIds.length === 0) return [];
  // Columns by name, not `*`: prepared on PostgreSQL (src/shared/db/prepared-names.ts).
  return ex
    .selectFrom('control_areas')
    .select(['location_id', 'lab_id', 'sprinklered', 'cabinets', 'limits', 'updated_by', 'updated_at'])
    .where('location_id', 'in', [...locationIds])
    .orderBy('location_id')
    .execute();
}

export const controlAreasOfLab = (ex: Executor, labId: string) =>
  ex.selectFrom('control_areas').selectAll().where('lab_id', '=', labId).orderBy('location_id').execute();

/**
 * Takes the rows of these control areas for the rest of the transaction (PostgreSQL; SQLite transactions are
 * serialized already), in one order, so two placements into one area check and write one after the other.
 */
export async function lockControlAreas(ex: Executor, locationIds: readonly string[]): Promise<void> {
  if (locationIds.length === 0 || !isPostgres(ex)) return;
  await ex
    .selectFrom('control_areas')
    .select('location_id')
    .where('location_id', 'in', [...locationIds])
    .orderBy('location_id')
    .forUpdate()
    .execute();
}

export async function saveControlArea(ex: Executor, row: ControlAreasTable): Promise<void> {
  const { location_id, ...set } = row;
  await ex
    .insertInto('control_areas')
    .values(row)
    .onConflict((oc) => oc.column('location_id').doUpdateSet(set))
    .execute();
}

export async function deleteControlArea(ex: Executor, locationId: string): Promise<boolean> {
  const r = await ex.deleteFrom('control_areas').where('location_id', '=', locationId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export interface StorageAttributeRow {
  subject_kind: StorageSubjectKind;
  subject_id: string;
  corrosive: CorrosiveKind | null;
  aqueous: number;
}

/** The storage attributes of these items and types, in one statement. */
export async function storageAttributesOf(
  ex: Executor,
  itemIds: readonly string[],
  typeIds: readonly string[],
): Promise<StorageAttributeRow[]> {
  if (itemIds.length === 0 && typeIds.length === 0) return [];
  return ex
    .selectFrom('storage_attributes')
    .select(['subject_kind', 'subject_id', 'corrosive', 'aqueous'])
    .where((eb) =>
      eb.or([
        eb.and([eb('subject_kind', '=', 'item'), eb('subject_id', 'in', itemIds.length ? [...itemIds] : [''])]),
        eb.and([eb('subject_kind', '=', 'type'), eb('subject_id', 'in', typeIds.length ? [...typeIds] : [''])]),
      ]),
    )
    .execute();
}

// The containers of the item, or of the type's items, move to the holding of their new attributes
// (./holdings-repository.ts): segregation reads the kinds of containers a location holds there.
const subjectScope = (kind: StorageSubjectKind, id: string): HoldingsScope => (kind === 'item' ? { itemIds: [id] } : { typeId: id });

export async function saveStorageAttributes(
  ex: Executor,
  row: StorageAttributeRow & { updated_by: string; updated_at: string },
): Promise<void> {
  await trackHoldings(ex, subjectScope(row.subject_kind, row.subject_id), () => upsertAttributes(ex, row));
}

async function upsertAttributes(ex: Executor, row: StorageAttributeRow & { updated_by: string; updated_at: string }) {
  await ex
    .insertInto('storage_attributes')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['subject_kind', 'subject_id']).doUpdateSet({
        corrosive: row.corrosive,
        aqueous: row.aqueous,
        updated_by: row.updated_by,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

export async function deleteStorageAttributes(ex: Executor, kind: StorageSubjectKind, id: string): Promise<void> {
  await trackHoldings(ex, subjectScope(kind, id), () =>
    ex.deleteFrom('storage_attributes').where('subject_kind', '=', kind).where('subject_id', '=', id).execute(),
  );
}

/**
 * A condition for another folder's query: whether the lab (a column reference) has any control area. The fast
 * quantity write (src/inventory/quantity-fast.ts) reads it in its one statement, so a lab without control areas
 * pays nothing for the limit check.
 */
export const labHasControlAreas = (labIdColumn: string): RawBuilder<boolean> =>
  sql<boolean>`exists (select 1 from control_areas ca where ca.lab_id = ${sql.ref(labIdColumn)})`;
