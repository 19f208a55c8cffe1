import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';

// Issue 25, docs/labels.md: every container (instance), every location, and every item of a legacy lab has a short
// random code, unique in the installation and never reused, printed on its label. The table is owned by src/labels/.
// target_id carries no foreign key: a deleted target keeps its code row, so the code is never handed out again.
// Existing rows get their codes here; new ones get theirs in the transaction that creates them (src/labels/repository.ts).

// The alphabet and length of src/labels/rules.ts, repeated because a migration stays as it was written.
const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
const LENGTH = 10;

function newCode(): string {
  const bytes = randomBytes(LENGTH);
  let code = '';
  for (const b of bytes) code += ALPHABET[b & 31];
  return code;
}

export async function up(db: Kysely<any>): Promise<void> {
  const text = 'text';
  await db.schema
    .createTable('label_codes')
    .addColumn('code', text, (c) => c.primaryKey())
    .addColumn('organization_id', text, (c) => c.notNull().references('organizations.id'))
    .addColumn('kind', text, (c) => c.notNull())
    .addColumn('target_id', text, (c) => c.notNull())
    .addColumn('lab_id', text, (c) => c.notNull())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('retired_at', text)
    .execute();
  await db.schema.createIndex('label_codes_target_idx').on('label_codes').columns(['kind', 'target_id']).unique().execute();
  await db.schema.createIndex('label_codes_lab_idx').on('label_codes').columns(['lab_id', 'kind']).execute();

  const now = new Date().toISOString();
  const seen = new Set<string>();
  const take = (): string => {
    let c = newCode();
    while (seen.has(c)) c = newCode();
    seen.add(c);
    return c;
  };
  const backfill = async (kind: string, rows: { id: string; lab_id: string; organization_id: string }[]) => {
    const values = rows.map((r) => ({ code: take(), organization_id: r.organization_id, kind, target_id: r.id, lab_id: r.lab_id, created_at: now, retired_at: null }));
    for (let i = 0; i < values.length; i += 500) await db.insertInto('label_codes').values(values.slice(i, i + 500)).execute();
  };
  // Page by id so a large installation never holds every row at once.
  const pageSize = 5000;
  const walk = async (kind: string, page: (after: string) => Promise<{ id: string; lab_id: string; organization_id: string }[]>) => {
    let after = '';
    for (;;) {
      const rows = await page(after);
      if (rows.length === 0) return;
      await backfill(kind, rows);
      after = rows[rows.length - 1]!.id;
    }
  };
  await walk('location', (after) =>
    db.selectFrom('locations').innerJoin('labs', 'labs.id', 'locations.lab_id')
      .select(['locations.id', 'locations.lab_id', 'labs.organization_id'])
      .where('locations.id', '>', after).orderBy('locations.id').limit(pageSize).execute(),
  );
  await walk('instance', (after) =>
    db.selectFrom('inventory_item_instances')
      .innerJoin('inventory_items', 'inventory_items.id', 'inventory_item_instances.item_id')
      .innerJoin('labs', 'labs.id', 'inventory_items.lab_id')
      .select(['inventory_item_instances.id', 'inventory_items.lab_id', 'labs.organization_id'])
      .where('inventory_item_instances.id', '>', after).orderBy('inventory_item_instances.id').limit(pageSize).execute(),
  );
  await walk('item', (after) =>
    db.selectFrom('inventory_items').innerJoin('labs', 'labs.id', 'inventory_items.lab_id')
      .select(['inventory_items.id', 'inventory_items.lab_id', 'labs.organization_id'])
      .where('labs.uses_instances', '=', 0)
      .where('inventory_items.id', '>', after).orderBy('inventory_items.id').limit(pageSize).execute(),
  );
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
