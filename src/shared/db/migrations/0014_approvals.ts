import type { Kysely } from 'kysely';

// Approvals (docs/ordering.md, docs/product.md §13): each lab's approval rule, each lab member's role, and the
// approval mails still to go out.
//
// - lab_memberships.role: 'member' | 'approver' | 'manager'; every existing membership is a member.
// - lab_approval_rules: one row per lab that has had a rule; without a row the rule is 'none' (as before). The
//   threshold of 'above' is a major-unit decimal string and its currency, as order_requests store prices.
// - approval_notices: one row per (request, person) still to be mailed, written in the transaction that creates
//   the request and deleted once the SMTP server took the mail (src/order-requests/approval-mail.ts). No foreign
//   key to the request: deleting a request does not wait for its mails; the job drops notices of missing ones.
export async function up(db: Kysely<any>): Promise<void> {
  const text = 'text';
  await db.schema.alterTable('lab_memberships').addColumn('role', text, (c) => c.notNull().defaultTo('member')).execute();

  await db.schema.createTable('lab_approval_rules')
    .addColumn('lab_id', text, (c) => c.primaryKey().references('labs.id'))
    // 'none' | 'all' | 'above'
    .addColumn('rule', text, (c) => c.notNull())
    .addColumn('threshold_amount', text)
    .addColumn('threshold_currency', text)
    .addColumn('updated_by', text, (c) => c.notNull().references('users.id'))
    .addColumn('updated_at', text, (c) => c.notNull())
    .execute();

  await db.schema.createTable('approval_notices')
    .addColumn('id', text, (c) => c.primaryKey())
    .addColumn('order_request_id', text, (c) => c.notNull())
    .addColumn('user_id', text, (c) => c.notNull().references('users.id'))
    .addColumn('created_at', text, (c) => c.notNull())
    // A worker sending this notice owns it until then (several workers on PostgreSQL).
    .addColumn('lease_until', text)
    .execute();
  await db.schema.createIndex('approval_notices_created_idx').on('approval_notices').columns(['created_at', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('Labstock migrations are forward-only: restore a backup to go back.');
}
