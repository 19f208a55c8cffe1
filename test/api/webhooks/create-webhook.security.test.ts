import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../helpers/harness.js';

// Only organization admins manage webhooks (PRODUCT §3), and only for their own organization and its labs:
// another organization's lab or organization id is 404, as if it did not exist.

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(() => h?.close());

const countWebhooks = async () => Number((await h.deps.db.selectFrom('webhooks').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow()).n);
const bIds = () => [h.b.orgId, h.b.legacyLab.id, h.b.migratedLab.id, h.b.otherLab.id, h.b.admin.id, h.b.member.id];

describe('POST /webhooks: roles', () => {
  it('a member gets 403 forbidden and nothing is created', async () => {
    const before = await countWebhooks();
    for (const payload of [
      { organization_id: h.a.orgId, url: 'https://hooks.example.org/m' },
      { lab_id: h.a.legacyLab.id, url: 'https://hooks.example.org/m' }, // a lab the member belongs to
    ]) {
      const res = await h.call(h.a.member.token, { method: 'POST', url: '/webhooks', payload });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden', message: expect.any(String), request_id: expect.any(String) });
      expect(res.body).not.toMatch(/whsec_/);
    }
    expect(await countWebhooks()).toBe(before);
  });

  it('a member of no lab gets 403 too', async () => {
    const res = await h.call(h.a.outsider.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/o' } });
    expect(res.statusCode, res.body).toBe(403);
  });

  it('the admin of the same organization may (control)', async () => {
    const res = await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/a' } });
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe('POST /webhooks: another organization\'s ids', () => {
  it.each([
    ['legacy lab', () => h.b.legacyLab.id],
    ['migrated lab', () => h.b.migratedLab.id],
    ['other lab', () => h.b.otherLab.id],
  ])('lab_id of B\'s %s: 404 for A\'s admin, nothing created, no B id in the answer', async (_label, labId) => {
    const before = await countWebhooks();
    const res = await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { lab_id: labId(), url: 'https://hooks.example.org/b' } });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
    for (const id of bIds()) expect(res.body).not.toContain(id);
    expect(await countWebhooks()).toBe(before);
  });

  it('organization_id of B: 404 for A\'s admin, nothing created', async () => {
    const before = await countWebhooks();
    const res = await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.b.orgId, url: 'https://hooks.example.org/b', event_types: ['order-request.*'] } });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
    for (const id of bIds()) expect(res.body).not.toContain(id);
    expect(await countWebhooks()).toBe(before);
  });

  it('B\'s ids answer the same as ids that exist nowhere (no existence oracle)', async () => {
    const ghost = '00000000-0000-4000-8000-000000000000';
    const foreign = await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { lab_id: h.b.legacyLab.id, url: 'https://hooks.example.org/b' } });
    const missing = await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { lab_id: ghost, url: 'https://hooks.example.org/b' } });
    expect(foreign.statusCode).toBe(missing.statusCode);
    expect(foreign.json().message).toBe(missing.json().message);
    const foreignOrg = await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: h.b.orgId, url: 'https://hooks.example.org/b' } });
    const missingOrg = await h.call(h.a.admin.token, { method: 'POST', url: '/webhooks', payload: { organization_id: ghost, url: 'https://hooks.example.org/b' } });
    expect(foreignOrg.statusCode).toBe(missingOrg.statusCode);
    expect(foreignOrg.json().message).toBe(missingOrg.json().message);
  });

  it('a member trying B\'s lab is refused (403 or 404) and nothing is created', async () => {
    const before = await countWebhooks();
    const res = await h.call(h.a.member.token, { method: 'POST', url: '/webhooks', payload: { lab_id: h.b.legacyLab.id, url: 'https://hooks.example.org/b' } });
    expect([403, 404]).toContain(res.statusCode);
    expect(await countWebhooks()).toBe(before);
  });

  it('B\'s admin creating for B lands in B only; A cannot see it', async () => {
    const res = await h.call(h.b.admin.token, { method: 'POST', url: '/webhooks', payload: { lab_id: h.b.legacyLab.id, url: 'https://hooks.example.org/b-own' } });
    expect(res.statusCode, res.body).toBe(201);
    const listA = await h.call(h.a.admin.token, { method: 'GET', url: '/webhooks?per_page=100' });
    expect(listA.body).not.toContain(res.json().id);
    expect(listA.body).not.toContain(res.json().signing_key);
  });
});
