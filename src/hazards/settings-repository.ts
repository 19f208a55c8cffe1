import type { Executor } from '../shared/db/database.js';
import type { LabSafetySettingsTable } from '../shared/db/schema.js';

// lab_safety_settings (migration 0037): whether segregation conflicts and control-area limits warn or block.

export const findSafetySettings = (ex: Executor, labId: string) =>
  ex
    .selectFrom('lab_safety_settings')
    // By name, not `*`: prepared on PostgreSQL (src/shared/db/prepared-names.ts).
    .select(['lab_id', 'segregation', 'limits', 'updated_by', 'updated_at'])
    .where('lab_id', '=', labId)
    .executeTakeFirst();

export async function saveSafetySettings(ex: Executor, row: LabSafetySettingsTable): Promise<void> {
  await ex
    .insertInto('lab_safety_settings')
    .values(row)
    .onConflict((oc) =>
      oc
        .column('lab_id')
        .doUpdateSet({ segregation: row.segregation, limits: row.limits, updated_by: row.updated_by, updated_at: row.updated_at }),
    )
    .execute();
}
