import { sql } from 'kysely';
import type { Db } from '../shared/db/database.js';

/** `select 1`: a builder select (not raw SQL), a read the PostgreSQL driver may retry after a lost connection. */
export async function selectOne(db: Db): Promise<void> {
  await db.selectNoFrom(sql<number>`1`.as('one')).execute();
}
