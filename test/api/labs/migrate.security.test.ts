// POST /labs/{id}/migrate-to-instances and GET /labs/{id}/migration (security): only org admins migrate (members
// 403 whatever the id, so a 403 says nothing about which labs exist); another tenant's lab is 404 exactly like a lab
// that does not exist; progress is visible to whoever sees the lab.
import { describe, expect, it } from 'vitest';
import { dbState } from '../../helpers/data.js';
import { expectError } from '../../helpers/errors.js';
import { waitForMigration } from '../../helpers/lab-migration.js';
import { UNKNOWN_ID } from '../../helpers/shapes.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const post = (token: string, id: string) => h.call(token, { method: 'POST', url: `/labs/${id}/migrate-to-instances` });
const get = (token: string, id: string) => h.call(token, { method: 'GET', url: `/labs/${id}/migration` });

/** Nothing of B's: no lab name, no id, no organization. */
function expectNoLeak(body: string): void {
  for (const secret of [h.b.legacyLab.id, h.b.migratedLab.id, h.b.otherLab.id, h.b.orgId, 'lab B', 'Org B'])
    expect(body).not.toContain(secret);
}

describe('migrate-to-instances (security)', () => {
  it('members get 403 forbidden for their own lab, and the very same answer for any other id; nothing changes', async () => {
    const before = await dbState(h);
    for (const token of [h.a.member.token, h.a.outsider.token]) {
      const own = expectError(await post(token, h.a.legacyLab.id), 403, 'forbidden');
      const foreign = expectError(await post(token, h.b.legacyLab.id), 403, 'forbidden');
      const missing = expectError(await post(token, UNKNOWN_ID), 403, 'forbidden');
      expect(own.message).toBe(foreign.message);
      expect(own.message).toBe(missing.message);
      expect(own.message).toMatch(/admin/);
    }
    expect(await dbState(h)).toEqual(before);
    expect((await get(h.a.admin.token, h.a.legacyLab.id)).json().status).toBe('not_started');
  });

  it('an admin gets 404 for every lab of another organization, like a lab that does not exist, and changes nothing there', async () => {
    const before = await dbState(h);
    const missing = expectError(await post(h.a.admin.token, UNKNOWN_ID), 404, 'not_found');
    for (const id of [h.b.legacyLab.id, h.b.migratedLab.id, h.b.otherLab.id]) {
      const res = await post(h.a.admin.token, id);
      const body = expectError(res, 404, 'not_found');
      expect(body.message).toBe(missing.message);
      expect(Object.keys(body).sort()).toEqual(Object.keys(missing).sort());
      expectNoLeak(res.body);
      const progress = await get(h.a.admin.token, id);
      expect(expectError(progress, 404, 'not_found').message).toBe(missing.message);
      expectNoLeak(progress.body);
    }
    for (const id of [h.a.legacyLab.id, h.a.otherLab.id]) expectError(await post(h.b.admin.token, id), 404, 'not_found');
    expect(await dbState(h)).toEqual(before);
  });

  it('progress: a member sees it for the labs they belong to, 404 for the others; the outsider sees none', async () => {
    expect((await get(h.a.member.token, h.a.legacyLab.id)).json()).toMatchObject({ lab_id: h.a.legacyLab.id, status: 'not_started' });
    expect((await get(h.a.member.token, h.a.migratedLab.id)).json()).toMatchObject({ status: 'done' });
    expectError(await get(h.a.member.token, h.a.otherLab.id), 404, 'not_found');
    for (const id of [h.a.legacyLab.id, h.a.migratedLab.id, h.a.otherLab.id])
      expectError(await get(h.a.outsider.token, id), 404, 'not_found');
  });

  it("an admin's migration touches only that lab: the other organization's items, labs and events stay as they were", async () => {
    const bItems = () =>
      h.deps.db
        .selectFrom('inventory_items')
        .selectAll()
        .where('lab_id', 'in', [h.b.legacyLab.id, h.b.migratedLab.id])
        .orderBy('id')
        .execute();
    const bEvents = () => h.deps.db.selectFrom('events').select('id').where('organization_id', '=', h.b.orgId).execute();
    const [items, events] = [await bItems(), await bEvents()];
    expect((await post(h.a.admin.token, h.a.otherLab.id)).statusCode).toBe(202);
    await waitForMigration(h, h.a.admin.token, h.a.otherLab.id);
    expect((await h.call(h.a.admin.token, { method: 'GET', url: `/labs/${h.a.otherLab.id}` })).json().uses_instances).toBe(true);
    expect((await h.call(h.b.admin.token, { method: 'GET', url: `/labs/${h.b.legacyLab.id}` })).json().uses_instances).toBe(false);
    expect((await h.call(h.a.admin.token, { method: 'GET', url: `/labs/${h.a.legacyLab.id}` })).json().uses_instances).toBe(false);
    expect(await bItems()).toEqual(items);
    expect(await bEvents()).toEqual(events);
  });
});
