#!/usr/bin/env node
import { Command } from 'commander';
import { systemActor } from '../shared/actor.js';
import { VERSION } from '../shared/version.js';
import { registerAdmin } from './admin.js';
import { reportAndExit, withContext } from './context.js';
import { registerMigrate } from './migrate.js';
import { emit, printError, wantsJson } from './output.js';

// `serve`, `worker` and `demo` import the HTTP app, the worker and the seed only when they run: every other command
// (the admin commands above all, which scripts and the CLI tests start by the dozen) starts without loading them.
const serveModule = () => import('./serve.js');

const program = new Command();
program.name('labstock').description('Lab inventory and ordering service').version(VERSION);
// Commander's own complaints (an unknown option, a missing argument) follow --json like every other error.
program.configureOutput({
  outputError: (text, write) => (wantsJson() ? printError('invalid_argument', text.replace(/^error: /, '').trim()) : write(text)),
});

program
  .command('serve')
  .description('serve the HTTP API and deliver webhooks')
  .option('--no-worker', 'serve the API only; run `labstock worker` processes for delivery')
  .action(async (o: { worker: boolean }) => (await serveModule()).serve(o));

program
  .command('worker')
  .description('deliver webhooks, send reminders and alerts (no HTTP API)')
  .action(async () => (await serveModule()).runWorker());

registerMigrate(program);

program
  .command('demo')
  .description('seed the demo organization into the configured database and print its token and ids')
  .option('--json', 'print JSON')
  .action((o: { json?: boolean }) =>
    withContext(async ({ deps, config }) => {
      const [{ seedDemo }, { setDemoPassword }] = await Promise.all([import('../demo/seed.js'), import('../accounts/auth.js')]);
      const result = await seedDemo(deps);
      const signIn = await setDemoPassword(deps.db, systemActor('cli'), result.admin_user_id);
      // APP_URL is where people open the application (and the only origin a browser may sign in from).
      const base = config.appUrl.replace(/\/$/, '');
      emit(!!o.json, { base_url: base, app_url: `${base}/app/`, ...result, sign_in: signIn }, () =>
        [
          'Demo organization "Demo University" is ready.',
          '',
          `  Web application: ${base}/app/`,
          `  Access token (org admin Ada Lovelace): ${result.token}`,
          `  Access token (lab member Max Planck):  ${result.member_token}`,
          `  Operator token (service operator Otto Hahn, shop fulfilment only): ${result.operator_token}`,
          `  Sign in (org admin): ${signIn.email} / ${signIn.password}   (in the web application, or POST /auth/sign-in; docs/auth.md)`,
          `  Organization: ${result.organization_id}`,
          `  Legacy lab:   ${result.legacy_lab_id}`,
          `  Migrated lab: ${result.migrated_lab_id}`,
          '',
          'Try:',
          `  curl -s ${base}/labs -H 'Access-Token: ${result.token}'`,
          `  curl -s '${base}/inventory-items?lab_id=${result.migrated_lab_id}' -H 'Access-Token: ${result.token}'`,
          `  curl -s -X PUT ${base}/inventory-items/${result.migrated_item_id}/instances/${result.migrated_instance_id} -H 'Access-Token: ${result.token}' -H 'Content-Type: application/json' -d '{"quantity":"0.25"}'`,
          `  curl -s ${base}/shop/orders/${result.sales_order_id} -H 'Access-Token: ${result.member_token}'`,
          `  curl -s -X POST ${base}/shop/order-items/${result.sales_order_item_id}/shipments -H 'Access-Token: ${result.operator_token}' -H 'Content-Type: application/json' -d '{"carrier":"UPS","tracking":"1Z999","quantity":2}'`,
          '  (The last command ships the demo shop order with the operator token; POST /shop/shipments/{id}/deliver receives it.',
          '   Operator tokens work only on fulfilment, tenant tokens never do; see labstock admin operator audit.)',
          '',
          `API reference: ${base}/docs`,
        ].join('\n'),
      );
    }),
  );

registerAdmin(program);

program.parseAsync().catch(reportAndExit);
