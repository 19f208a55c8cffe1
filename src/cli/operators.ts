import type { Command } from 'commander';
import { systemActor } from '../shared/actor.js';
import { withContext } from './context.js';
import { emit, table, UsageError } from './output.js';

type Json = { json?: boolean };

// The actions import the service when they run (src/cli/admin.ts says why).
const service = () => import('../operators/service.js');

/** `admin operator …`: service operators, their tokens and their audit trail (docs/decisions/0004-operators.md). */
export function registerOperators(admin: Command): void {
  const operator = admin
    .command('operator')
    .description('service operators: they fulfil shop orders of every organization, with their own tokens');

  operator
    .command('create')
    .description('create a service operator (or enable a disabled one with the same e-mail)')
    .requiredOption('--email <email>', 'e-mail')
    .requiredOption('--first-name <name>', 'first name')
    .requiredOption('--last-name <name>', 'last name')
    .option('--json', 'print JSON')
    .action((o: Json & { email: string; firstName: string; lastName: string }) =>
      withContext(async ({ handle }) => {
        const { createOperator } = await service();
        const row = await createOperator(handle.db, systemActor('cli'), { email: o.email, firstName: o.firstName, lastName: o.lastName });
        emit(
          !!o.json,
          row,
          () =>
            `operator ${row.id} <${row.email}> is ready; give it a token with: labstock admin operator token create --operator ${row.id}`,
        );
      }),
    );

  operator
    .command('list')
    .description('list service operators')
    .option('--json', 'print JSON')
    .action((o: Json) =>
      withContext(async ({ handle }) => {
        const { listOperators } = await service();
        const rows = await listOperators(handle.db, systemActor('cli'));
        emit(!!o.json, rows, () => table(rows, ['id', 'email', 'first_name', 'last_name', 'created_at', 'disabled_at']));
      }),
    );

  operator
    .command('disable')
    .description('disable an operator and revoke all its tokens at once')
    .requiredOption('--operator <id|email>', 'operator id or e-mail')
    .option('--json', 'print JSON')
    .action((o: Json & { operator: string }) =>
      withContext(async ({ handle }) => {
        const { disableOperator } = await service();
        const row = await disableOperator(handle.db, systemActor('cli'), o.operator);
        emit(!!o.json, row, () => `operator ${row.id} disabled at ${row.disabled_at}; its tokens are revoked`);
      }),
    );

  const token = operator.command('token').description('operator tokens (they authenticate only on shop fulfilment)');
  token
    .command('create')
    .description('create an operator token (printed once; only its hash is stored)')
    .requiredOption('--operator <id|email>', 'operator id or e-mail')
    .option('--name <name>', 'a label for the token')
    .option('--json', 'print JSON')
    .action((o: Json & { operator: string; name?: string }) =>
      withContext(async ({ handle }) => {
        const { createOperatorToken } = await service();
        const row = await createOperatorToken(handle.db, systemActor('cli'), { operator: o.operator, name: o.name ?? null });
        emit(!!o.json, row, () => `operator token ${row.id} created. It is shown only now:\n${row.token}`);
      }),
    );
  token
    .command('revoke')
    .description('revoke an operator token')
    .requiredOption('--token-id <id>', 'token id')
    .option('--json', 'print JSON')
    .action((o: Json & { tokenId: string }) =>
      withContext(async ({ handle }) => {
        const { revokeOperatorToken } = await service();
        const row = await revokeOperatorToken(handle.db, systemActor('cli'), o.tokenId);
        emit(!!o.json, row, () => `operator token ${row.id} revoked at ${row.revoked_at}`);
      }),
    );
  token
    .command('list')
    .description('list operator tokens (never their values)')
    .option('--operator <id|email>', 'only this operator')
    .option('--json', 'print JSON')
    .action((o: Json & { operator?: string }) =>
      withContext(async ({ handle }) => {
        const { listOperatorTokens } = await service();
        const rows = await listOperatorTokens(handle.db, systemActor('cli'), o.operator);
        emit(!!o.json, rows, () => table(rows, ['id', 'name', 'operator_id', 'created_at', 'last_used_at', 'revoked_at']));
      }),
    );

  operator
    .command('audit')
    .description('what operators did, newest first: who, what, which line or shipment, when, through which token or the CLI')
    .option('--operator <id|email>', 'only this operator')
    .option('--line <id>', 'only this sales order item')
    .option('--shipment <id>', 'only this shipment')
    .option('--limit <n>', 'entries (1-1000)', '100')
    .option('--json', 'print JSON')
    .action((o: Json & { operator?: string; line?: string; shipment?: string; limit: string }) =>
      withContext(async ({ handle }) => {
        const limit = Number(o.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
          throw new UsageError(`--limit: expected a whole number from 1 to 1000, got "${o.limit}"`);
        const { listAudit } = await service();
        const rows = await listAudit(handle.db, systemActor('cli'), {
          operator: o.operator,
          lineId: o.line,
          shipmentId: o.shipment,
          limit,
        });
        emit(!!o.json, rows, () =>
          table(
            rows.map((r) => ({ ...r, via: r.token_id ? `token ${r.token_id}` : r.via })),
            ['created_at', 'operator_id', 'action', 'outcome', 'sales_order_item_id', 'shipment_id', 'via', 'request_id'],
          ),
        );
      }),
    );
}
