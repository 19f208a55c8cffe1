import type { Command } from 'commander';
import { systemActor } from '../shared/actor.js';
import { withContext } from './context.js';
import { emit, UsageError } from './output.js';

// One-time links from the command line (docs/auth.md): the first organization and its admin on an empty
// installation, and a password reset link for anyone. Both print the link once; only its hash is stored.

export function registerBootstrap(admin: Command): void {
  admin
    .command('bootstrap')
    .description('first run: create the first organization and its admin, and print a one-time link to set their name and password')
    .requiredOption('--org <name>', 'organization name')
    .requiredOption('--email <email>', "the admin's e-mail")
    .option('--json', 'print JSON')
    .action((o: { org: string; email: string; json?: boolean }) =>
      withContext(async ({ handle, config }) => {
        const { bootstrap } = await import('../accounts/invitations.js');
        const r = await bootstrap(handle.db, systemActor('cli'), config.appUrl, { organization: o.org, email: o.email });
        emit(!!o.json, { organization: r.organization, user: r.user, url: r.url, expires_at: r.expires_at }, () =>
          [
            `organization ${r.organization.id} "${r.organization.name}" created; ${r.user.email} is its admin`,
            'Open this one-time link to choose a name and password and sign in (it is shown only now):',
            `  ${r.url}`,
            `It expires at ${r.expires_at}.`,
          ].join('\n'),
        );
      }),
    );
}

export function registerResetLink(user: Command): void {
  user
    .command('reset-link')
    .description('print a one-time password reset link for a user (valid 24 hours; older reset links stop working)')
    .option('--email <email>', "the user's e-mail")
    .option('--user <id>', 'user id')
    .option('--json', 'print JSON')
    .action((o: { email?: string; user?: string; json?: boolean }) =>
      withContext(async ({ handle, config }) => {
        if (!o.email === !o.user) throw new UsageError('give exactly one of --email and --user');
        const { operatorPasswordResetLink } = await import('../accounts/password-resets.js');
        const r = await operatorPasswordResetLink(handle.db, config.appUrl, { email: o.email, userId: o.user });
        emit(
          !!o.json,
          { user: r.user, url: r.url, expires_at: r.expires_at },
          () => `password reset link for ${r.user.email} (shown only now; expires at ${r.expires_at}):\n  ${r.url}`,
        );
      }),
    );
}
