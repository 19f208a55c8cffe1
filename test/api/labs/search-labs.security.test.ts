import { describe, expect, it } from 'vitest';
import { updateOrganizationLab } from '../../../src/labs/admin.js';
import { createLab } from '../../../src/labs/service.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const list = (token: string | null, query: string) => h.call(token, { method: 'GET', url: `/labs${query}` });

describe('GET /labs?q= (security)', () => {
  it("another organization's labs never appear, even searched by their name", async () => {
    for (const q of ['lab B', 'Legacy', 'lab']) {
      const labs = (await list(h.a.admin.token, `?q=${encodeURIComponent(q)}`)).json();
      expect(
        labs.every((l: { organization: { id: string } }) => l.organization.id === h.a.orgId),
        q,
      ).toBe(true);
    }
    expect((await list(h.a.admin.token, `?q=${encodeURIComponent('lab B')}`)).json()).toEqual([]);
    const other = await list(h.a.admin.token, `?q=lab&organization_id=${h.b.orgId}`);
    expect(other.json()).toEqual([]);
    expect(other.headers['x-total-count']).toBe('0');
  });

  it('a member never finds a lab of their organization they do not belong to', async () => {
    const res = await list(h.a.member.token, '?q=Other');
    expect(res.json()).toEqual([]);
    expect(res.headers['x-total-count']).toBe('0');
    expect((await list(h.a.outsider.token, '?q=lab')).json()).toEqual([]);
  });

  it('an archived lab is not found by q either', async () => {
    const lab = await createLab(h.deps.db, h.a.admin.actor, { organizationId: h.a.orgId, name: 'Soon archived' });
    expect((await list(h.a.admin.token, '?q=archived')).json()).toHaveLength(1);
    await updateOrganizationLab(h.deps.db, h.config.appUrl, h.a.admin.actor, lab.id, { archived: true });
    expect((await list(h.a.admin.token, '?q=archived')).json()).toEqual([]);
  });

  it('401 without a token, q or not', async () => {
    expect((await list(null, '?q=lab')).statusCode).toBe(401);
  });
});
