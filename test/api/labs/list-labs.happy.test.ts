import { describe, expect, it } from 'vitest';
import { createOrganization, createToken, createUser } from '../../../src/accounts/service.js';
import { createLab } from '../../../src/labs/service.js';
import { systemActor } from '../../../src/shared/actor.js';
import { orgAdminActor } from '../../helpers/fixtures.js';
import { expectLabShape, labJson, linkPages } from '../../helpers/shapes.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const listLabs = (token: string, query = '') => h.call(token, { method: 'GET', url: `/labs${query}` });

describe('GET /labs (happy)', () => {
  it('an org admin sees every lab of the org, exactly as the contract shapes them, in creation order', async () => {
    const res = await listLabs(h.a.admin.token);
    expect(res.statusCode).toBe(200);
    const labs = res.json();
    expect(Array.isArray(labs)).toBe(true);
    for (const lab of labs) expectLabShape(lab);
    expect(labs).toEqual([
      labJson(h.a.legacyLab.id, 'Legacy lab A', h.a, 'A', false),
      labJson(h.a.migratedLab.id, 'Migrated lab A', h.a, 'A', true),
      labJson(h.a.otherLab.id, 'Other lab A', h.a, 'A', false),
    ]);
  });

  it('uses_instances is a real boolean (false for legacy, true for migrated)', async () => {
    const labs = (await listLabs(h.a.admin.token)).json();
    expect(labs.find((l: any) => l.id === h.a.legacyLab.id).uses_instances).toBe(false);
    expect(labs.find((l: any) => l.id === h.a.migratedLab.id).uses_instances).toBe(true);
  });

  it('a member sees only the labs they belong to', async () => {
    const res = await listLabs(h.a.member.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().map((l: any) => l.id)).toEqual([h.a.legacyLab.id, h.a.migratedLab.id]);
    expect(res.headers['x-total-count']).toBe('2');
  });

  it('sends X-Total-Count and a Link header with first and last (no next on the only page)', async () => {
    const res = await listLabs(h.a.admin.token);
    expect(res.headers['x-total-count']).toBe('3');
    const links = linkPages(res.headers.link);
    expect(links.first?.page).toBe(1);
    expect(links.last?.page).toBe(1);
    expect(links.next).toBeUndefined();
    expect(links.prev).toBeUndefined();
    expect(links.first?.url.pathname).toBe('/labs');
  });

  it('per_page splits the list into stable pages with first/prev/next/last links', async () => {
    const all = (await listLabs(h.a.admin.token)).json().map((l: any) => l.id);
    const seen: string[] = [];
    for (let page = 1; page <= 3; page += 1) {
      const res = await listLabs(h.a.admin.token, `?per_page=1&page=${page}`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toHaveLength(1);
      seen.push(body[0].id);
      expect(res.headers['x-total-count']).toBe('3');
      const links = linkPages(res.headers.link);
      expect(links.first?.page).toBe(1);
      expect(links.last?.page).toBe(3);
      expect(links.first?.url.searchParams.get('per_page')).toBe('1');
      if (page > 1) expect(links.prev?.page).toBe(page - 1);
      else expect(links.prev).toBeUndefined();
      if (page < 3) expect(links.next?.page).toBe(page + 1);
      else expect(links.next).toBeUndefined();
    }
    expect(seen).toEqual(all);
  });

  it('a page past the end is an empty array with the total still given', async () => {
    const res = await listLabs(h.a.admin.token, '?page=2');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(res.headers['x-total-count']).toBe('3');
    const far = await listLabs(h.a.admin.token, '?per_page=1&page=999');
    expect(far.statusCode).toBe(200);
    expect(far.json()).toEqual([]);
    expect(linkPages(far.headers.link).last?.page).toBe(3);
  });

  it("filters by organization_id (the token's own org gives the same list) and keeps the filter in Link", async () => {
    const res = await listLabs(h.a.admin.token, `?organization_id=${h.a.orgId}&per_page=2`);
    expect(res.statusCode).toBe(200);
    expect(res.json().map((l: any) => l.id)).toEqual([h.a.legacyLab.id, h.a.migratedLab.id]);
    expect(res.headers['x-total-count']).toBe('3');
    const links = linkPages(res.headers.link);
    expect(links.next?.page).toBe(2);
    expect(links.next?.url.searchParams.get('organization_id')).toBe(h.a.orgId);
  });

  it('accepts the Bearer header and ignores unknown query parameters', async () => {
    const res = await h.call(null, { method: 'GET', url: '/labs?colour=blue', headers: { authorization: `Bearer ${h.a.admin.token}` } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(3);
  });

  it('pages hold 25 labs by default, per_page up to 100, in stable creation order', async () => {
    const org = await createOrganization(h.deps.db, systemActor('cli'), { name: 'Org C' });
    const admin = await createUser(h.deps.db, systemActor('cli'), {
      organizationId: org.id,
      email: 'admin-c@example.org',
      firstName: 'Cy',
      lastName: 'AdminC',
      role: 'admin',
    });
    const created: string[] = [];
    for (let i = 0; i < 30; i += 1)
      created.push((await createLab(h.deps.db, orgAdminActor(org.id, admin.id), { organizationId: org.id, name: `Lab C${i}` })).id);
    const { token } = await createToken(h.deps.db, systemActor('cli'), { userId: admin.id, organizationId: org.id });
    const dbOrder = (
      await h.deps.db
        .selectFrom('labs')
        .select(['id', 'created_at'])
        .where('organization_id', '=', org.id)
        .orderBy('created_at')
        .orderBy('id')
        .execute()
    ).map((r) => r.id);
    expect(dbOrder.slice().sort()).toEqual(created.slice().sort());

    const first = await listLabs(token);
    expect(first.json()).toHaveLength(25);
    expect(first.headers['x-total-count']).toBe('30');
    const links = linkPages(first.headers.link);
    expect(links.next?.page).toBe(2);
    expect(links.last?.page).toBe(2);
    const second = await listLabs(token, '?page=2');
    expect(second.json()).toHaveLength(5);
    expect(linkPages(second.headers.link).next).toBeUndefined();
    expect([...first.json(), ...second.json()].map((l: any) => l.id)).toEqual(dbOrder);
    expect((await listLabs(token, '?page=3')).json()).toEqual([]);

    const big = await listLabs(token, '?per_page=100');
    expect(big.json().map((l: any) => l.id)).toEqual(dbOrder);
    const again = await listLabs(token, '?per_page=100');
    expect(again.json()).toEqual(big.json());
    const sevens: string[] = [];
    for (let p = 1; p <= 5; p += 1) sevens.push(...(await listLabs(token, `?per_page=7&page=${p}`)).json().map((l: any) => l.id));
    expect(sevens).toEqual(dbOrder);
    for (const lab of big.json()) expect(lab.organization).toEqual({ id: org.id, name: 'Org C' });
  });
});
