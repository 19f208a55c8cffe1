import type { Command } from 'commander';
import type * as migrationRules from '../lab-migration/rules.js';
import type { MigrationProgress } from '../lab-migration/rules.js';
import { systemActor } from '../shared/actor.js';
import { fieldError } from '../shared/errors.js';
import { registerBackup } from './backup.js';
import { withContext } from './context.js';
import { registerInventory } from './inventory.js';
import { registerBootstrap, registerResetLink } from './links.js';
import { registerOperators } from './operators.js';
import { emit, table, UsageError } from './output.js';
import { registerSetPassword } from './passwords.js';
import type { Same } from './same.js';
import { registerOperatorFlag, registerShop } from './shop.js';
import { registerSso } from './sso.js';

// Each action imports the modules it uses when it runs: registering every command (for parsing and --help) then
// loads only commander and these files, and a command loads its own domain, not every other one's
// (docs/performance.md, Test suite time: a `labstock` process is started by the dozen in scripts and tests).
const accountsService = () => import('../accounts/service.js');
const accountsRepo = () => import('../accounts/repository.js');
const labsRepo = () => import('../labs/repository.js');
const labsService = () => import('../labs/service.js');
const operatorsService = () => import('../operators/service.js');

/** src/lab-migration/rules.ts's batch sizes, for `lab migrate --help` without that module and the database layer. */
const DEFAULT_BATCH_SIZE = 500;
const MAX_BATCH_SIZE = 5000;
const sameBatchSizes: Same<
  [typeof DEFAULT_BATCH_SIZE, typeof MAX_BATCH_SIZE],
  [typeof migrationRules.DEFAULT_BATCH_SIZE, typeof migrationRules.MAX_BATCH_SIZE]
> = true;
void sameBatchSizes;

type Json = { json?: boolean };

export function registerAdmin(program: Command): void {
  const admin = program.command('admin').description('manage organizations, users, labs, memberships and access tokens');

  const org = admin.command('org').description('organizations');
  org
    .command('create')
    .description('create an organization')
    .requiredOption('--name <name>', 'organization name')
    .option('--json', 'print JSON')
    .action((o: Json & { name: string }) =>
      withContext(async ({ handle }) => {
        const { createOrganization } = await accountsService();
        const row = await createOrganization(handle.db, systemActor('cli'), { name: o.name });
        emit(!!o.json, row, () => `organization ${row.id} "${row.name}" created`);
      }),
    );
  org
    .command('list')
    .description('list organizations')
    .option('--json', 'print JSON')
    .action((o: Json) =>
      withContext(async ({ handle }) => {
        const rows = await (await accountsRepo()).listOrganizations(handle.db);
        emit(!!o.json, rows, () => table(rows, ['id', 'name', 'created_at']));
      }),
    );

  const user = admin.command('user').description('users');
  user
    .command('create')
    .description('create a user in an organization (or add an existing e-mail to it)')
    .requiredOption('--org <id>', 'organization id')
    .requiredOption('--email <email>', 'e-mail')
    .requiredOption('--first-name <name>', 'first name')
    .requiredOption('--last-name <name>', 'last name')
    .option('--role <role>', 'admin or member', 'member')
    .option('--operator', 'also create a service operator with this e-mail (admin operator create)')
    .option('--json', 'print JSON')
    .action((o: Json & { org: string; email: string; firstName: string; lastName: string; role: string; operator?: boolean }) =>
      withContext(async ({ handle }) => {
        if (o.role !== 'admin' && o.role !== 'member') throw new UsageError(`--role must be admin or member, not "${o.role}"`);
        const [{ createUser }, { setUserOperator }] = await Promise.all([accountsService(), operatorsService()]);
        const created = await createUser(handle.db, systemActor('cli'), {
          organizationId: o.org,
          email: o.email,
          firstName: o.firstName,
          lastName: o.lastName,
          role: o.role,
        });
        // The operator is a separate principal with its own tokens: this user's tokens stay tenant tokens.
        const operator = o.operator === undefined ? null : await setUserOperator(handle.db, systemActor('cli'), created.id, o.operator);
        const active = operator !== null && operator.disabled_at === null;
        const row = { ...created, is_operator: active, operator_id: active ? operator.id : null };
        emit(
          !!o.json,
          row,
          () =>
            `user ${row.id} <${row.email}> is ${row.role} of ${row.organization_id}${row.operator_id ? `; operator ${row.operator_id} has the same e-mail (it needs its own token: admin operator token create)` : ''}`,
        );
      }),
    );
  user
    .command('list')
    .description('list users')
    .option('--org <id>', 'only this organization')
    .option('--json', 'print JSON')
    .action((o: Json & { org?: string }) =>
      withContext(async ({ handle }) => {
        const [{ activeOperatorUserIds }, { listUsers }] = await Promise.all([import('../operators/repository.js'), accountsRepo()]);
        const operators = await activeOperatorUserIds(handle.db);
        const rows = (await listUsers(handle.db, o.org)).map((r) => ({ ...r, is_operator: operators.has(r.id) }));
        emit(!!o.json, rows, () => table(rows, ['id', 'email', 'first_name', 'last_name', 'organization_id', 'role', 'is_operator']));
      }),
    );

  registerOperatorFlag(user);
  registerSetPassword(user);
  registerResetLink(user);
  registerBootstrap(admin);

  const lab = admin.command('lab').description('labs');
  lab
    .command('create')
    .description('create a lab')
    .requiredOption('--org <id>', 'organization id')
    .requiredOption('--name <name>', 'lab name')
    .option('--uses-instances', 'create it migrated to instances')
    .option('--json', 'print JSON')
    .action((o: Json & { org: string; name: string; usesInstances?: boolean }) =>
      withContext(async ({ handle }) => {
        const { createLab } = await labsService();
        const row = await createLab(handle.db, systemActor('cli'), { organizationId: o.org, name: o.name, usesInstances: o.usesInstances });
        emit(!!o.json, row, () => `lab ${row.id} "${row.name}" created (${row.uses_instances ? 'uses instances' : 'legacy'})`);
      }),
    );
  lab
    .command('list')
    .description('list labs')
    .option('--org <id>', 'only this organization')
    .option('--json', 'print JSON')
    .action((o: Json & { org?: string }) =>
      withContext(async ({ handle }) => {
        const { listLabRows, toLab } = await labsRepo();
        const rows = (await listLabRows(handle.db, o.org)).map(toLab);
        emit(!!o.json, rows, () =>
          table(
            rows.map((l) => ({ ...l, organization: l.organization.id })),
            ['id', 'name', 'organization', 'uses_instances'],
          ),
        );
      }),
    );
  lab
    .command('add-member')
    .description("add a user of the lab's organization to the lab")
    .requiredOption('--lab <id>', 'lab id')
    .requiredOption('--user <id>', 'user id')
    .option('--json', 'print JSON')
    .action((o: Json & { lab: string; user: string }) =>
      withContext(async ({ handle }) => {
        const { addMember } = await labsService();
        const r = await addMember(handle.db, systemActor('cli'), o.lab, o.user);
        emit(!!o.json, r, () => (r.added ? `user ${o.user} added to lab ${o.lab}` : `user ${o.user} was already a member of lab ${o.lab}`));
      }),
    );
  lab
    .command('migrate')
    .description('migrate a legacy lab to instances (permanent; batched and resumable: run it again to finish an interrupted one)')
    .requiredOption('--lab <id>', 'lab id')
    .option('--batch-size <n>', `items per transaction (1-${MAX_BATCH_SIZE})`, String(DEFAULT_BATCH_SIZE))
    .option('--json', 'print JSON')
    .action((o: Json & { lab: string; batchSize: string }) =>
      withContext(async ({ deps }) => {
        const { parseBatchSize } = await import('../lab-migration/rules.js');
        const batchSize = parseBatchSize(o.batchSize);
        const { runMigration } = await import('../lab-migration/service.js');
        if (batchSize === null) throw fieldError('--batch-size', `must be an integer from 1 to ${MAX_BATCH_SIZE}`);
        const bar = await migrationBar(!o.json);
        const result = await runMigration(deps, systemActor('cli'), o.lab, { batchSize, onProgress: bar.update }).finally(bar.stop);
        emit(
          !!o.json,
          result,
          () =>
            `lab ${result.lab_id} uses instances: ${result.items_migrated} of ${result.items_total} items migrated${result.finished_at ? `, finished ${result.finished_at}` : ' (it was created with instances)'}`,
        );
      }),
    );

  const token = admin.command('token').description('access tokens');
  token
    .command('create')
    .description('create an access token (printed once; only its hash is stored)')
    .requiredOption('--user <id>', 'user id')
    .requiredOption('--org <id>', 'organization id')
    .option('--name <name>', 'a label for the token')
    .option('--json', 'print JSON')
    .action((o: Json & { user: string; org: string; name?: string }) =>
      withContext(async ({ handle }) => {
        const { createToken } = await accountsService();
        const row = await createToken(handle.db, systemActor('cli'), { userId: o.user, organizationId: o.org, name: o.name ?? null });
        emit(!!o.json, row, () => `token ${row.id} created. It is shown only now:\n${row.token}`);
      }),
    );
  token
    .command('revoke')
    .description('revoke an access token')
    .requiredOption('--token-id <id>', 'token id')
    .option('--json', 'print JSON')
    .action((o: Json & { tokenId: string }) =>
      withContext(async ({ handle }) => {
        const { revokeToken } = await accountsService();
        const row = await revokeToken(handle.db, systemActor('cli'), o.tokenId);
        emit(!!o.json, row, () => `token ${row.id} revoked at ${row.revoked_at}`);
      }),
    );
  token
    .command('list')
    .description('list access tokens (never their values)')
    .option('--user <id>', 'only this user')
    .option('--org <id>', 'only this organization')
    .option('--json', 'print JSON')
    .action((o: Json & { user?: string; org?: string }) =>
      withContext(async ({ handle }) => {
        const rows = await (await accountsRepo()).listTokens(handle.db, { userId: o.user, organizationId: o.org });
        emit(!!o.json, rows, () => table(rows, ['id', 'name', 'user_id', 'organization_id', 'created_at', 'last_used_at', 'revoked_at']));
      }),
    );

  admin
    .command('rebuild')
    .description(
      'write the stored item documents that are missing and compute the control-area totals again (after an upgrade or a bulk load); --all writes every document again',
    )
    .option('--all', 'write every document again')
    .option('--json', 'print JSON')
    .action((o: Json & { all?: boolean }) =>
      withContext(async ({ handle, config }) => {
        const bar = await countBar(!o.json, 'documents');
        const { rebuildDocuments } = await import('../inventory/stored/rebuild.js');
        const documents = await rebuildDocuments(handle.db, systemActor('cli'), config.appUrl, { all: !!o.all, onProgress: bar.update });
        bar.stop();
        // The control-area totals, computed again from the containers (src/hazards/holdings-repository.ts).
        const { rebuildHoldings } = await import('../hazards/holdings-repository.js');
        const holdings = await handle.db.transaction().execute((trx) => rebuildHoldings(trx));
        const result = { ...documents, holdings };
        emit(!!o.json, result, () => `${result.written} item documents written; ${holdings} holdings computed again`);
      }),
    );

  registerShop(admin);
  registerInventory(admin);
  registerOperators(admin);
  registerSso(admin);
  registerBackup(admin);
}

/** A progress bar on stderr when it is a terminal (never with --json): items migrated of the lab's items. */
async function migrationBar(enabled: boolean) {
  if (!enabled || !process.stderr.isTTY) return { update: (_p: MigrationProgress) => undefined, stop: () => undefined };
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar(
    { format: 'migrating [{bar}] {percentage}% {value}/{total} items | {eta_formatted} left', stream: process.stderr },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update: (p: MigrationProgress) => {
      if (!started) bar.start(p.items_total, p.items_migrated);
      else {
        bar.setTotal(p.items_total);
        bar.update(p.items_migrated);
      }
      started = true;
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}

/** A progress bar on stderr when it is a terminal: `done` of `total` things. */
async function countBar(enabled: boolean, what: string) {
  if (!enabled || !process.stderr.isTTY) return { update: (_d: number, _t: number) => undefined, stop: () => undefined };
  const { default: cliProgress } = await import('cli-progress');
  const bar = new cliProgress.SingleBar(
    { format: `writing [{bar}] {percentage}% {value}/{total} ${what} | {eta_formatted} left`, stream: process.stderr },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update: (done: number, total: number) => {
      if (!started) bar.start(total, done);
      else bar.update(done);
      started = true;
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}
