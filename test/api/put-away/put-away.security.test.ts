// Put-away through the lab's visibility: no token, another organization's labs, items and instances, a lab the
// member does not belong to (404, never 403), and lists that never show what the caller may not see.

import { describe, expect, it } from 'vitest';
import { createLab } from '../../../src/labs/service.js';
import { dbState } from '../../helpers/data.js';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { idsOf, listLab, putAway, receive } from './_put-away.js';

const h = useHarness();

describe('put-away (security)', () => {
  it('401 without a token or with an unknown one', async () => {
    const r = await receive(h, h.a.admin.token, h.a.migratedLab);
    for (const token of [null, 'lst_unknown']) {
      expectError(await listLab(h, token, h.a.migratedLab.id), 401, 'unauthorized');
      expectError(await h.call(token, { method: 'GET', url: '/put-away' }), 401, 'unauthorized');
      expectError(await putAway(h, token, r.itemId, r.instanceId, {}), 401, 'unauthorized');
    }
  });

  it("another organization's lab and instance are 404 to every token of A; B's list stays B's", async () => {
    const b = await receive(h, h.b.admin.token, h.b.migratedLab);
    const before = await dbState(h);
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      expectError(await listLab(h, token, h.b.migratedLab.id), 404, 'not_found');
      expectError(await putAway(h, token, b.itemId, b.instanceId, { lot_number: 'MINE' }), 404, 'not_found');
      // B's instance through an item of A is not found either.
      expectError(await putAway(h, token, h.a.migratedLab.itemId, b.instanceId, {}), 404, 'not_found');
      expect(idsOf(await h.call(token, { method: 'GET', url: '/put-away?per_page=100' }))).not.toContain(b.instanceId);
      expect((await h.call(token, { method: 'GET', url: `/put-away?lab_id=${h.b.migratedLab.id}` })).json()).toEqual([]);
    }
    expect(await dbState(h)).toEqual(before);
    expect(idsOf(await listLab(h, h.b.admin.token, h.b.migratedLab.id))).toContain(b.instanceId);
  });

  it('a lab the member is not in is 404 to them and absent from their list; the admin sees it', async () => {
    const hidden = await createLab(h.deps.db, h.a.admin.actor, {
      organizationId: h.a.orgId,
      name: 'Hidden put-away lab',
      usesInstances: true,
    });
    const type = await h.call(h.a.admin.token, { method: 'POST', url: '/types', payload: { lab_id: hidden.id, name: 'Hidden type' } });
    const r = await receive(h, h.a.admin.token, { id: hidden.id, typeId: type.json().id });
    expectError(await listLab(h, h.a.member.token, hidden.id), 404, 'not_found');
    expectError(await putAway(h, h.a.member.token, r.itemId, r.instanceId, {}), 404, 'not_found');
    expect(idsOf(await h.call(h.a.member.token, { method: 'GET', url: '/put-away?per_page=100' }))).not.toContain(r.instanceId);
    expect(idsOf(await h.call(h.a.admin.token, { method: 'GET', url: '/put-away?per_page=100' }))).toContain(r.instanceId);
    // The outsider belongs to no lab: every lab is 404 and the list is empty.
    expectError(await listLab(h, h.a.outsider.token, h.a.migratedLab.id), 404, 'not_found');
    expect((await h.call(h.a.outsider.token, { method: 'GET', url: '/put-away' })).json()).toEqual([]);
  });
});
