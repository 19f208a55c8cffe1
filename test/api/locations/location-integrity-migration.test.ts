// Migration 0006 (src/shared/db/migrations/0006_location_integrity.ts) on a database that already holds the
// duplicate sibling names concurrent requests could store on PostgreSQL (issue 9, item 2): the oldest keeps its
// name, later ones get " (n)" with a number no sibling uses, and the unique index then refuses any new duplicate,
// at the root (parent NULL) as below a parent.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../../src/shared/db/database.js';
import { up } from '../../../src/shared/db/migrations/0006_location_integrity.js';
import { newId } from '../../../src/shared/ids.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

let clock = 0;
/** A location row as an older version stored it, created `clock` ms after 2020 (so the order is known). */
async function insert(labId: string, parentId: string | null, name: string): Promise<string> {
  const id = newId();
  await h.deps.db
    .insertInto('locations')
    .values({ id, lab_id: labId, parent_id: parentId, name, created_at: new Date(Date.UTC(2020, 0, 1) + ++clock).toISOString() })
    .execute();
  return id;
}
const nameOf = async (id: string) =>
  (await h.deps.db.selectFrom('locations').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name;

describe('0006_location_integrity', () => {
  it('renames later duplicates, keeps everything else, then enforces unique sibling names', async () => {
    await sql`drop index locations_sibling_name_uq`.execute(h.deps.db);
    const labA = h.a.migratedLab.id;
    const labB = h.b.migratedLab.id;

    const roots = [await insert(labA, null, 'Freezer'), await insert(labA, null, 'Freezer'), await insert(labA, null, 'Freezer')];
    const taken = await insert(labA, null, 'Freezer (2)'); // a sibling already uses the first suffix
    const shelves = [await insert(labA, roots[0]!, 'Shelf'), await insert(labA, roots[0]!, 'Shelf')];
    const elsewhere = await insert(labA, roots[1]!, 'Shelf'); // same name, other parent: no duplicate
    const otherLab = await insert(labB, null, 'Freezer'); // same name, other lab: no duplicate
    const long = 'x'.repeat(200);
    const longs = [await insert(labA, null, long), await insert(labA, null, long)];
    const cased = await insert(labA, null, 'freezer'); // names compare exactly, as the API compares them

    await up(h.deps.db);

    expect(await Promise.all(roots.map(nameOf))).toEqual(['Freezer', 'Freezer (3)', 'Freezer (4)']);
    expect(await nameOf(taken)).toBe('Freezer (2)');
    expect(await Promise.all(shelves.map(nameOf))).toEqual(['Shelf', 'Shelf (2)']);
    expect(await nameOf(elsewhere)).toBe('Shelf');
    expect(await nameOf(otherLab)).toBe('Freezer');
    expect(await nameOf(longs[0]!)).toBe(long);
    expect(await nameOf(longs[1]!)).toBe(`${'x'.repeat(196)} (2)`);
    expect(await nameOf(cased)).toBe('freezer');

    // The renamed locations keep their ids, parents and children.
    const child = await h.deps.db.selectFrom('locations').select('parent_id').where('id', '=', shelves[1]!).executeTakeFirstOrThrow();
    expect(child.parent_id).toBe(roots[0]);
    expect((await h.call(h.a.admin.token, { method: 'GET', url: `/labs/${labA}/locations` })).statusCode).toBe(200);

    // Now the database itself refuses duplicates, whatever writes them.
    for (const [parent, name] of [
      [null, 'Freezer'],
      [roots[0]!, 'Shelf'],
    ] as const) {
      const err = await insert(labA, parent, name).then(
        () => null,
        (e: unknown) => e,
      );
      expect(isUniqueViolation(err), String(err)).toBe(true);
    }
  });
});
