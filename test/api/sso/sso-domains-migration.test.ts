import { describe, expect, it } from 'vitest';
import { up as up0019 } from '../../../src/shared/db/migrations/0019_sso_domains.js';
import { useHarness } from '../../helpers/use-harness.js';

// Migration 0019 on an installation that had SSO before domains were verified: the domains already listed are
// claimed by the organization that configured SSO first, all unverified, and dropped from a later one's list.
const h = useHarness();

describe('migration 0019_sso_domains', () => {
  it('claims the listed domains oldest configuration first, unverified, and drops a later duplicate', async () => {
    const db = h.deps.db;
    const settings = (organization_id: string, domains: string[], at: string) => ({
      organization_id,
      issuer: 'https://login.example.org',
      client_id: 'c',
      client_secret: 's',
      allowed_domains: JSON.stringify(domains),
      enabled: 1,
      created_at: at,
      updated_at: at,
    });
    // The state before 0019: settings rows only (the table is made again by the migration).
    await db.schema.dropTable('sso_domains').execute();
    await db
      .insertInto('organization_sso')
      .values([
        settings(h.b.orgId, ['shared.example', 'b.example'], '2026-02-01T00:00:00.000Z'),
        settings(h.a.orgId, ['a.example', 'shared.example'], '2026-01-01T00:00:00.000Z'),
      ])
      .execute();
    await up0019(db);
    const rows = await db.selectFrom('sso_domains').selectAll().orderBy('domain').execute();
    expect(rows.map((r) => [r.domain, r.organization_id, r.verified_at, r.verified_by])).toEqual([
      ['a.example', h.a.orgId, null, null],
      ['b.example', h.b.orgId, null, null],
      ['shared.example', h.a.orgId, null, null],
    ]);
    expect(new Set(rows.map((r) => r.verification_token)).size).toBe(3);
    const lists = await db.selectFrom('organization_sso').select(['organization_id', 'allowed_domains']).execute();
    const of = (id: string) => JSON.parse(lists.find((l) => l.organization_id === id)!.allowed_domains);
    expect(of(h.a.orgId)).toEqual(['a.example', 'shared.example']);
    expect(of(h.b.orgId)).toEqual(['b.example']);
  });
});
