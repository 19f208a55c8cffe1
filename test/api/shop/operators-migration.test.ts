// Migration 0007 (src/shared/db/migrations/0007_operators.ts) on a database as the previous version left it:
// users flagged is_operator become operator principals with the same e-mail, the flag is cleared and grants
// nothing, the audit trail says where each operator came from, and running the conversion again adds no operator.

import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createOperatorToken } from '../../../src/operators/service.js';
import { systemActor } from '../../../src/shared/actor.js';
import { migrateOperatorFlags, up } from '../../../src/shared/db/migrations/0007_operators.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const flag = (userId: string) => h.deps.db.updateTable('users').set({ is_operator: 1 }).where('id', '=', userId).execute();

describe('0007_operators', () => {
  it("turns each is_operator user into an operator principal; the user's own token stops fulfilling", async () => {
    // Back to the schema before 0007, with two flagged users (one of each organization).
    for (const table of ['operator_audit', 'operator_tokens', 'operators']) await sql`drop table ${sql.table(table)}`.execute(h.deps.db);
    await flag(h.a.admin.id);
    await flag(h.b.member.id);

    await up(h.deps.db);

    const operators = await h.deps.db.selectFrom('operators').selectAll().orderBy('email').execute();
    expect(operators).toEqual([
      expect.objectContaining({
        email: 'admin-a@example.org',
        first_name: 'Ada',
        last_name: 'AdminA',
        user_id: h.a.admin.id,
        disabled_at: null,
      }),
      expect.objectContaining({
        email: 'member-b@example.org',
        first_name: 'Max',
        last_name: 'MemberB',
        user_id: h.b.member.id,
        disabled_at: null,
      }),
    ]);
    expect(await h.deps.db.selectFrom('users').select('id').where('is_operator', '=', 1).execute()).toEqual([]);
    const audit = await h.deps.db.selectFrom('operator_audit').selectAll().orderBy('operator_id').execute();
    expect(audit).toHaveLength(2);
    for (const op of operators) {
      const row = audit.find((a) => a.operator_id === op.id)!;
      expect(row).toMatchObject({ action: 'operator.migrated', outcome: 'ok', via: 'migration', token_id: null, request_id: null });
      expect(JSON.parse(row.detail!)).toEqual({ from_user_id: op.user_id, user_flag: 'is_operator' });
    }

    // The flagged admin's token is a tenant token: its labs still, fulfilment never.
    expect((await h.call(h.a.admin.token, { method: 'GET', url: '/labs' })).statusCode).toBe(200);
    expect((await h.call(h.a.admin.token, { method: 'GET', url: '/shop/order-items' })).statusCode).toBe(403);
    // The operator it became fulfils with a token of its own.
    const token = await createOperatorToken(h.deps.db, systemActor('cli'), { operator: 'admin-a@example.org', name: 'after migration' });
    expect((await h.call(token.token, { method: 'GET', url: '/shop/order-items' })).statusCode).toBe(200);
    expect((await h.call(token.token, { method: 'GET', url: '/labs' })).statusCode).toBe(403);
  });

  it('running the conversion again (a flag set by an old binary) adds no operator, only the audit note', async () => {
    const before = await h.deps.db.selectFrom('operators').selectAll().orderBy('id').execute();
    expect(before).toHaveLength(2);
    await flag(h.a.admin.id);
    expect(await migrateOperatorFlags(h.deps.db)).toEqual([]);
    expect(await h.deps.db.selectFrom('operators').selectAll().orderBy('id').execute()).toEqual(before);
    expect(await h.deps.db.selectFrom('users').select('id').where('is_operator', '=', 1).execute()).toEqual([]);
    const notes = await h.deps.db.selectFrom('operator_audit').select('operator_id').where('action', '=', 'operator.migrated').execute();
    expect(notes.filter((n) => n.operator_id === before.find((o) => o.user_id === h.a.admin.id)!.id)).toHaveLength(2);
    expect(await migrateOperatorFlags(h.deps.db)).toEqual([]);
  });
});
