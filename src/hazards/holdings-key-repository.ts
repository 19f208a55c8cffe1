import { type RawBuilder, sql } from 'kysely';

// The SQL that says what a container is for the holdings (./holdings-repository.ts): its item's unit size, hazard
// statements in force and storage attributes in force, from the item row aliased `it`. Shared by the writes that
// keep the totals and the reads that list one holding's containers, so both always agree on a container's key.

/** The statements in force for the item row `it`, sorted and space-separated ('' for none). */
export const codesOf = (pg: boolean) => {
  const agg = pg ? sql.raw(`string_agg(c.code, ' ' order by c.code)`) : sql.raw(`group_concat(c.code, ' ' order by c.code)`);
  return sql<string>`coalesce((select ${agg} from hazard_set_codes c where c.set_id = coalesce(
    (select s.id from hazard_sets s where s.item_id = it.id),
    (select s.id from hazard_sets s where s.type_id = it.type_id))), '')`;
};

/** The storage attributes in force for the item row `it`: what segregation adds to its classes ('' for none). */
export const storageOf = () => {
  const key = sql.raw(`trim(coalesce(a.corrosive, '') || case when a.aqueous = 1 then ' aqueous' else '' end)`);
  return sql<string>`coalesce(
    (select ${key} from storage_attributes a where a.subject_kind = 'item' and a.subject_id = it.id),
    (select ${key} from storage_attributes a where a.subject_kind = 'type' and a.subject_id = it.type_id), '')`;
};

/** Active, placed containers matching `where` (on `i`, the instance, and `it`, its item), with their key. */
export const profiled = (pg: boolean, where: RawBuilder<unknown>) => sql`
  select i.location_id, i.item_id, coalesce(it.unit_size, '') as unit_size, i.quantity, ${codesOf(pg)} as hazard_codes,
    ${storageOf()} as storage
  from inventory_item_instances i join inventory_items it on it.id = i.item_id
  where ${where} and i.archived_at is null and i.location_id is not null`;
