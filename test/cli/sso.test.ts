import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createUser } from '../../src/accounts/service.js';
import { listSsoDomains } from '../../src/accounts/sso-domains.js';
import { putOrganizationSso, ssoSettingsFor } from '../../src/accounts/sso-settings.js';
import { systemActor } from '../../src/shared/actor.js';
import { cliEnv, cliFailure, cliJson } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { orgAdminActor } from '../helpers/fixtures.js';

// `labstock admin sso approve-domain` through the real binary (dist/): the installation's operator verifies a
// domain an organization claimed (issue 22, item 2; docs/auth.md, Single sign-on).
let database: TestDatabase;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  database = await createTestDatabase();
  env = cliEnv(database);
});
afterAll(async () => {
  await database?.drop();
});

async function orgWithSso(name: string, domains: string[]) {
  const db = database.handle.db;
  const org = await createOrganization(db, systemActor('cli'), { name });
  const admin = await createUser(db, systemActor('cli'), {
    organizationId: org.id,
    email: `admin@${name.toLowerCase().replace(/\W/g, '')}.example.org`,
    firstName: 'A',
    lastName: 'Dmin',
    role: 'admin',
  });
  const actor = orgAdminActor(org.id, admin.id);
  const settings = { appUrl: 'http://labstock.test', ssoAllowedCidrs: ['127.0.0.0/8'] };
  await putOrganizationSso(
    db,
    actor,
    { issuer: 'http://127.0.0.1:9/', client_id: 'c', client_secret: 's', allowed_domains: domains, enabled: true },
    settings,
  );
  return { org, actor };
}

describe('labstock admin sso approve-domain', () => {
  it("verifies an organization's claim on the operator's word; sign-in by e-mail then goes to that organization", async () => {
    const db = database.handle.db;
    const { org, actor } = await orgWithSso('Approve U', ['approved.example', 'other.example']);
    expect(await ssoSettingsFor(db, { email: 'x@approved.example' })).toBeNull();
    const row = await cliJson(env, 'admin', 'sso', 'approve-domain', '--organization', org.id, '--domain', 'Approved.Example');
    expect(row).toMatchObject({ domain: 'approved.example', status: 'verified', verified_by: 'operator' });
    expect((await ssoSettingsFor(db, { email: 'x@approved.example' }))?.organization_id).toBe(org.id);
    // Only that domain: the other one is still pending.
    expect((await listSsoDomains(db, actor)).map((d) => [d.domain, d.status])).toEqual([
      ['approved.example', 'verified'],
      ['other.example', 'pending'],
    ]);
  });

  it('refuses a domain the organization has not claimed, or that another organization holds, and changes nothing', async () => {
    const db = database.handle.db;
    const { org: holder } = await orgWithSso('Holder U', ['held.example']);
    const { org: other, actor } = await orgWithSso('Other U', ['mine.example']);
    const notClaimed = await cliFailure(env, 'admin', 'sso', 'approve-domain', '--organization', other.id, '--domain', 'nobody.example');
    expect(notClaimed).toContain('A claim of nobody.example (the organization lists it in allowed_domains first) not found');
    const theirs = await cliFailure(env, 'admin', 'sso', 'approve-domain', '--organization', other.id, '--domain', 'held.example');
    expect(theirs).toContain('claimed by another organization');
    expect(await ssoSettingsFor(db, { email: 'x@held.example' })).toBeNull();
    expect((await listSsoDomains(db, actor)).map((d) => d.status)).toEqual(['pending']);
    expect(holder.id).not.toBe(other.id);
  });
});
