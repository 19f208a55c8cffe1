import type { Command } from 'commander';
import { systemActor } from '../shared/actor.js';
import { withContext } from './context.js';
import { emit } from './output.js';

/**
 * `admin sso …`: the installation's operator vouches for an organization's single sign-on domain, for a domain
 * whose DNS the server cannot resolve or where a TXT record cannot be published (docs/auth.md, Single sign-on).
 */
export function registerSso(admin: Command): void {
  const sso = admin.command('sso').description('single sign-on: approve the e-mail domains organizations claimed');
  sso
    .command('approve-domain')
    .description("verify a domain an organization lists in its SSO allowed_domains, on the operator's word")
    .requiredOption('--organization <id>', 'organization id')
    .requiredOption('--domain <domain>', 'e-mail domain, such as lab.example.org')
    .option('--json', 'print JSON')
    .action((o: { organization: string; domain: string; json?: boolean }) =>
      withContext(async ({ handle }) => {
        const { approveSsoDomain } = await import('../accounts/sso-domains.js');
        const row = await approveSsoDomain(handle.db, systemActor('cli'), o.organization, o.domain);
        emit(!!o.json, row, () => `${row.domain} is verified for organization ${o.organization} (by ${row.verified_by})`);
      }),
    );
}
