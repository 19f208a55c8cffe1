import { type Kysely, sql } from 'kysely';

/** The longest location name the API accepts (src/locations/service.ts). */
const MAX_NAME = 200;

interface Row {
  id: string;
  lab_id: string;
  parent_id: string | null;
  name: string;
}

const levelKey = (r: Row) => `${r.lab_id}\u0000${r.parent_id ?? ''}`;

/** `name (n)`, cut so that it stays within the API's length limit. */
const suffixed = (name: string, n: number): string => {
  const suffix = ` (${n})`;
  return `${name.slice(0, MAX_NAME - suffix.length)}${suffix}`;
};

/**
 * Sibling location names become unique in the database, root locations (parent NULL) included: a unique index on
 * (lab_id, coalesce(parent_id, ''), name), names compared exactly as the API compares them. Before this, concurrent
 * requests on PostgreSQL could store two siblings of one name (issue 9). Such duplicates are kept, not merged: the
 * oldest (created_at, then id) keeps its name, as the lab migration already treats it (src/lab-migration/service.ts), and
 * each later one is renamed "Name (2)", "Name (3)", … with the first number no sibling uses. Ids, parents and the
 * instances stored in them do not change; no event is written (docs/api.md, "Locations").
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { rows: duplicates } = await sql<Row & { created_at: string }>`
    select l.id, l.lab_id, l.parent_id, l.name, l.created_at from locations l
    where exists (
      select 1 from locations o
      where o.lab_id = l.lab_id and coalesce(o.parent_id, '') = coalesce(l.parent_id, '') and o.name = l.name and o.id <> l.id
    )
    order by l.created_at, l.id`.execute(db);

  const taken = new Map<string, Set<string>>();
  const keeper = new Set<string>();
  for (const row of duplicates) {
    const level = levelKey(row);
    if (!taken.has(level)) {
      const siblings = await db.selectFrom('locations').select('name').where('lab_id', '=', row.lab_id)
        .where('parent_id', row.parent_id === null ? 'is' : '=', row.parent_id).execute();
      taken.set(level, new Set(siblings.map((s: { name: string }) => s.name)));
    }
    const nameKey = `${level}\u0000${row.name}`;
    if (!keeper.has(nameKey)) {
      keeper.add(nameKey);
      continue;
    }
    const names = taken.get(level)!;
    let n = 2;
    while (names.has(suffixed(row.name, n))) n++;
    const name = suffixed(row.name, n);
    names.add(name);
    await db.updateTable('locations').set({ name }).where('id', '=', row.id).execute();
  }

  await sql`create unique index locations_sibling_name_uq on locations (lab_id, coalesce(parent_id, ''), name)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
