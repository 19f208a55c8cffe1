import { type SqlBool, sql } from 'kysely';
import type { Actor } from '../shared/actor.js';
import { containsPattern } from '../shared/contains-text.js';
import { type Executor, isPostgres } from '../shared/db/database.js';
import { pagedList } from '../shared/db/paged-list.js';
import type { LabMigrationColumns, LabRole, LabsTable } from '../shared/db/schema.js';
import type { Page } from '../shared/pagination.js';
import type { Lab } from './schemas.js';

/**
 * The ids of the labs this token may see, as a subquery: every lab of the organization for an org admin, the
 * labs they belong to for a member. Every tenant-scoped query in the service filters through it.
 */
export function visibleLabIds(ex: Executor, actor: Pick<Actor, 'organizationId' | 'userId' | 'role'>) {
  let q = ex.selectFrom('labs').select('labs.id').where('labs.organization_id', '=', actor.organizationId);
  if (actor.role !== 'admin') {
    q = q.where(
      'labs.id',
      'in',
      ex.selectFrom('lab_memberships').select('lab_memberships.lab_id').where('lab_memberships.user_id', '=', actor.userId),
    );
  }
  return q;
}

/**
 * The same rule for one row's lab, as a subquery for EXISTS correlated on `labIdColumn`: index lookups of that one
 * lab (SQLite builds an IN list subquery whole, every lab of the organization, on each run of the statement).
 */
export function labIsVisible(ex: Executor, actor: Pick<Actor, 'organizationId' | 'userId' | 'role'>, labIdColumn: string) {
  let q = ex
    .selectFrom('labs')
    .select(sql<number>`1`.as('one'))
    .where('labs.id', '=', sql.ref<string>(labIdColumn))
    .where('labs.organization_id', '=', actor.organizationId);
  if (actor.role !== 'admin') {
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('lab_memberships')
          .select(sql<number>`1`.as('one'))
          .whereRef('lab_memberships.lab_id', '=', 'labs.id')
          .where('lab_memberships.user_id', '=', actor.userId),
      ),
    );
  }
  return q;
}

const labColumns = [
  'labs.id',
  'labs.name',
  'labs.uses_instances',
  'labs.organization_id',
  'organizations.name as organization_name',
  'labs.created_at',
] as const;

type LabRow = { id: string; name: string; uses_instances: number; organization_id: string; organization_name: string };

export const toLab = (r: LabRow): Lab => ({
  id: r.id,
  name: r.name,
  organization: { id: r.organization_id, name: r.organization_name },
  uses_instances: r.uses_instances === 1,
});

const labsWithOrg = (ex: Executor) => ex.selectFrom('labs').innerJoin('organizations', 'organizations.id', 'labs.organization_id');

export async function findVisibleLab(ex: Executor, actor: Actor, id: string): Promise<Lab | undefined> {
  const row = await labsWithOrg(ex)
    .select(labColumns)
    .where('labs.id', '=', id)
    .where('labs.id', 'in', visibleLabIds(ex, actor))
    .executeTakeFirst();
  return row && toLab(row);
}

/** GET /labs' filters; `q` is trimmed and not blank (src/shared/contains-text.ts). */
export interface LabFilter {
  organizationId?: string | undefined;
  q?: string | undefined;
}

export async function listVisibleLabs(ex: Executor, actor: Actor, filter: LabFilter, page: Page) {
  // Archived labs leave the list (src/labs/admin.ts); by id they stay readable, like everything in them.
  let base = labsWithOrg(ex).where('labs.id', 'in', visibleLabIds(ex, actor)).where('labs.archived_at', 'is', null);
  if (filter.organizationId) base = base.where('labs.organization_id', '=', filter.organizationId);
  // A LIKE over the organization's few labs, already narrowed to the visible ones (src/shared/contains-text.ts).
  const q = filter.q;
  if (q !== undefined) base = base.where(sql<SqlBool>`lower(labs.name) like ${containsPattern(q)} escape '\\'`);
  const { total, rows } = await pagedList(base, base.select(labColumns).orderBy('labs.created_at').orderBy('labs.id'), page);
  return { total, labs: rows.map(toLab) };
}

/** Labs by id for embedding in other resources; one query whatever the number of ids. */
export async function labsByIds(ex: Executor, ids: Iterable<string>): Promise<Map<string, Lab>> {
  const unique = [...new Set(ids)];
  const out = new Map<string, Lab>();
  if (unique.length === 0) return out;
  const rows = await labsWithOrg(ex).select(labColumns).where('labs.id', 'in', unique).execute();
  for (const r of rows) out.set(r.id, toLab(r));
  return out;
}

export async function insertLab(ex: Executor, row: LabsTable): Promise<void> {
  await ex.insertInto('labs').values(row).execute();
}

export const findLabRow = (ex: Executor, id: string) => ex.selectFrom('labs').selectAll().where('id', '=', id).executeTakeFirst();

export function listLabRows(ex: Executor, organizationId?: string) {
  let q = labsWithOrg(ex).select(labColumns).orderBy('labs.created_at').orderBy('labs.id');
  if (organizationId) q = q.where('labs.organization_id', '=', organizationId);
  return q.execute();
}

export async function addLabMember(ex: Executor, labId: string, userId: string, now: string, role: LabRole = 'member'): Promise<boolean> {
  // One statement, so two requests adding the same person at once both succeed: one adds, the other finds them added.
  const r = await ex
    .insertInto('lab_memberships')
    .values({ lab_id: labId, user_id: userId, created_at: now, role })
    .onConflict((oc) => oc.columns(['lab_id', 'user_id']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** The flags that say whether a lab migrates; with `share`, the row is read FOR SHARE on PostgreSQL (src/labs/migrating.ts). */
export function findMigrationFlags(ex: Executor, labId: string, opts: { share?: boolean } = {}) {
  const q = ex.selectFrom('labs').select(['uses_instances', 'migration_started_at']).where('id', '=', labId);
  return (opts.share && isPostgres(ex) ? q.forShare() : q).executeTakeFirst();
}

/**
 * Writes a lab's migration columns (and, when the migration finishes, uses_instances). src/lab-migration/service.ts
 * decides what they hold, inside its batch's transaction with the lab row locked; this folder owns the table.
 */
export async function updateLabMigration(
  ex: Executor,
  labId: string,
  set: Partial<LabMigrationColumns> & Partial<Pick<LabsTable, 'uses_instances'>>,
): Promise<void> {
  await ex.updateTable('labs').set(set).where('id', '=', labId).execute();
}

/** Every lab of an organization, archived ones included, for its admins (src/labs/admin.ts). */
export async function pageOrganizationLabs(ex: Executor, organizationId: string, page: Page) {
  const base = ex.selectFrom('labs').where('organization_id', '=', organizationId);
  return pagedList(
    base,
    base.select(['id', 'name', 'uses_instances', 'archived_at', 'created_at']).orderBy('created_at').orderBy('id'),
    page,
  );
}

export async function updateLabRow(ex: Executor, labId: string, set: { name?: string; archived_at?: string | null }): Promise<void> {
  await ex.updateTable('labs').set(set).where('id', '=', labId).execute();
}

export const listLabMemberRows = (ex: Executor, labId: string) =>
  ex
    .selectFrom('lab_memberships')
    .innerJoin('users', 'users.id', 'lab_memberships.user_id')
    .select(['users.id', 'users.first_name', 'users.last_name', 'users.email', 'lab_memberships.role', 'lab_memberships.created_at'])
    .where('lab_memberships.lab_id', '=', labId)
    .orderBy('lab_memberships.created_at')
    .orderBy('users.id')
    .execute();

export async function removeLabMember(ex: Executor, labId: string, userId: string): Promise<boolean> {
  const r = await ex.deleteFrom('lab_memberships').where('lab_id', '=', labId).where('user_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Locks a lab row for the rest of the transaction (PostgreSQL), serializing work that checks then inserts per lab. */
export async function lockLab(ex: Executor, labId: string): Promise<void> {
  if (isPostgres(ex)) {
    // NO KEY UPDATE serializes the lockers without blocking inserts that merely reference the lab.
    await ex.selectFrom('labs').select('id').where('id', '=', labId).forNoKeyUpdate().execute();
  }
}
