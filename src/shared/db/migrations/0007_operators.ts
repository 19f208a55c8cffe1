import type { Kysely } from 'kysely';
import { v7 } from 'uuid';

// Operators become service-level principals (docs/decisions/0004-operators.md): their own table and tokens,
// bound to no organization, and an audit trail of everything they do. Users who held the old `is_operator` flag
// become operator principals with the same e-mail; the flag is cleared and grants nothing any more.
export async function up(db: Kysely<any>): Promise<void> {
  const text = 'text';
  await db.schema.createTable('operators')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('email', text, (c) => c.notNull().unique())
    .addColumn('first_name', text, (c) => c.notNull())
    .addColumn('last_name', text, (c) => c.notNull())
    // The user row that names the operator in tenants' history (order request events, received items); that
    // user's own tokens stay tenant tokens and never fulfil.
    .addColumn('user_id', text, (c) => c.notNull().references('users.id'))
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('disabled_at', text)
    .execute();

  await db.schema.createTable('operator_tokens')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('operator_id', text, (c) => c.notNull().references('operators.id'))
    .addColumn('name', text)
    .addColumn('token_hash', text, (c) => c.notNull().unique())
    .addColumn('created_at', text, (c) => c.notNull())
    .addColumn('last_used_at', text)
    .addColumn('revoked_at', text)
    .execute();

  await db.schema.createTable('operator_audit')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('operator_id', text, (c) => c.notNull().references('operators.id'))
    .addColumn('action', text, (c) => c.notNull())
    .addColumn('sales_order_item_id', text)
    .addColumn('shipment_id', text)
    .addColumn('outcome', text, (c) => c.notNull())
    .addColumn('via', text, (c) => c.notNull())
    .addColumn('token_id', text)
    .addColumn('request_id', text)
    .addColumn('detail', text)
    .addColumn('created_at', text, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('operator_audit_time_idx').on('operator_audit').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('operator_audit_operator_idx').on('operator_audit').columns(['operator_id', 'created_at']).execute();

  await migrateOperatorFlags(db);
}

/**
 * Each user flagged `is_operator` becomes an operator principal (same e-mail and names, named in history by that
 * user), the flag is cleared, and the audit trail records where the operator came from. Safe to run again.
 */
export async function migrateOperatorFlags(db: Kysely<any>, now = new Date().toISOString()): Promise<string[]> {
  const flagged = await db.selectFrom('users').select(['id', 'email', 'first_name', 'last_name']).where('is_operator', '=', 1).execute();
  const created: string[] = [];
  for (const user of flagged) {
    const existing = await db.selectFrom('operators').select('id').where('email', '=', user.email).executeTakeFirst();
    const operatorId: string = existing?.id ?? v7();
    if (!existing) {
      await db.insertInto('operators').values({
        id: operatorId, email: user.email, first_name: user.first_name, last_name: user.last_name, user_id: user.id, created_at: now, disabled_at: null,
      }).execute();
      created.push(operatorId);
    }
    await db.insertInto('operator_audit').values({
      id: v7(), operator_id: operatorId, action: 'operator.migrated', sales_order_item_id: null, shipment_id: null, outcome: 'ok',
      via: 'migration', token_id: null, request_id: null, detail: JSON.stringify({ from_user_id: user.id, user_flag: 'is_operator' }), created_at: now,
    }).execute();
    await db.updateTable('users').set({ is_operator: 0 }).where('id', '=', user.id).execute();
  }
  return created;
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
