import { describe, expect, it } from 'vitest';
import { createLab } from '../../../src/labs/service.js';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, dbState, expectError, getItemJson, UNKNOWN_ID } from './_helpers.js';

let privateItem: { id: string; instanceId: string };
const h = useHarness({}, async (h) => {
  // A migrated lab of org A that the member does not belong to.
  const lab = await createLab(h.deps.db, h.a.admin.actor, {
    organizationId: h.a.orgId,
    name: 'Private migrated lab A',
    usesInstances: true,
  });
  const item = await addItem(h, h.a.admin.actor, { labId: lab.id, name: 'Private serum' }, [{ quantity: '2' }]);
  privateItem = { id: item.id, instanceId: item.instances[0]!.id };
});

/** PUTs as `token`; asserts 404 with no data and that the target item (read by `readerToken`) and the database are untouched. */
async function expectHidden(
  token: string,
  itemId: string,
  instanceId: string,
  readerToken: string,
  targetItemId = itemId,
  headers: Record<string, string> = {},
) {
  const before = await getItemJson(h, readerToken, targetItemId);
  expect(before.status).toBe(200);
  const state = await dbState(h);
  const res = await h.call(token, {
    method: 'PUT',
    url: `/inventory-items/${itemId}/instances/${instanceId}`,
    payload: { quantity: '77' },
    headers,
  });
  const body = expectError(res, 404, 'not_found');
  expect(body).not.toHaveProperty('instances');
  expect(res.headers.etag).toBeUndefined();
  expect(res.body).not.toContain(before.body.name);
  expect(await dbState(h)).toEqual(state);
  const after = await getItemJson(h, readerToken, targetItemId);
  expect(after.body).toEqual(before.body);
  expect(after.etag).toBe(before.etag);
  return body;
}

describe('PUT /inventory-items/{itemId}/instances/{itemInstanceId} (security)', () => {
  it("org A's tokens get 404 for org B's item and instance", async () => {
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const inst of h.b.migratedLab.instanceIds) await expectHidden(token, h.b.migratedLab.itemId, inst, h.b.admin.token);
    }
  });

  it("org A's own item with org B's instance id is 404 and touches neither", async () => {
    await expectHidden(h.a.admin.token, h.a.migratedLab.itemId, h.b.migratedLab.instanceIds[0]!, h.b.admin.token, h.b.migratedLab.itemId);
    await expectHidden(h.a.admin.token, h.a.migratedLab.itemId, h.b.migratedLab.instanceIds[0]!, h.a.admin.token, h.a.migratedLab.itemId);
  });

  it("org B's item with org A's instance id is 404 and touches neither", async () => {
    await expectHidden(h.a.admin.token, h.b.migratedLab.itemId, h.a.migratedLab.instanceIds[0]!, h.a.admin.token, h.a.migratedLab.itemId);
    await expectHidden(h.a.admin.token, h.b.migratedLab.itemId, h.a.migratedLab.instanceIds[0]!, h.b.admin.token, h.b.migratedLab.itemId);
  });

  it('If-Match "*" does not open a hidden item', async () => {
    await expectHidden(h.a.admin.token, h.b.migratedLab.itemId, h.b.migratedLab.instanceIds[0]!, h.b.admin.token, h.b.migratedLab.itemId, {
      'if-match': '*',
    });
    await expectHidden(h.a.admin.token, h.b.migratedLab.itemId, h.b.migratedLab.instanceIds[0]!, h.b.admin.token, h.b.migratedLab.itemId, {
      'if-match': '"stale"',
    });
  });

  it("org B's tokens get 404 for org A's instances", async () => {
    for (const token of [h.b.admin.token, h.b.member.token]) {
      await expectHidden(token, h.a.migratedLab.itemId, h.a.migratedLab.instanceIds[1]!, h.a.admin.token);
      await expectHidden(token, privateItem.id, privateItem.instanceId, h.a.admin.token);
    }
  });

  it('a member gets 404 in a migrated lab they do not belong to; the admin may update it', async () => {
    await expectHidden(h.a.member.token, privateItem.id, privateItem.instanceId, h.a.admin.token);
    await expectHidden(h.a.outsider.token, privateItem.id, privateItem.instanceId, h.a.admin.token);
    const admin = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/inventory-items/${privateItem.id}/instances/${privateItem.instanceId}`,
      payload: { quantity: '3' },
    });
    expect(admin.statusCode, admin.body).toBe(200);
    expect(admin.json().quantity).toBe('3');
  });

  it("a user in no lab gets 404 for the instances of the lab's items", async () => {
    await expectHidden(h.a.outsider.token, h.a.migratedLab.itemId, h.a.migratedLab.instanceIds[0]!, h.a.admin.token);
  });

  it("a hidden instance's 404 looks like an unknown one's", async () => {
    const hidden = await expectHidden(h.a.admin.token, h.b.migratedLab.itemId, h.b.migratedLab.instanceIds[0]!, h.b.admin.token);
    const missing = expectError(
      await h.call(h.a.admin.token, {
        method: 'PUT',
        url: `/inventory-items/${UNKNOWN_ID}/instances/${UNKNOWN_ID}`,
        payload: { quantity: '77' },
      }),
      404,
    );
    expect(hidden.code).toBe(missing.code);
    expect(hidden.message).toBe(missing.message);
  });

  it("after all of the above, org B's items still have their seeded quantities and no event names them", async () => {
    const b = await getItemJson(h, h.b.admin.token, h.b.migratedLab.itemId);
    expect(b.body.quantity).toBe('0.3');
    expect(b.body.instances.map((i: any) => i.quantity)).toEqual(['0.1', '0.2']);
    const changes = await h.deps.db
      .selectFrom('inventory_item_changes')
      .select(['item_id'])
      .where('field', '!=', 'instance.added')
      .execute();
    expect(changes).toHaveLength(1); // only the admin's legitimate update of the private item
    expect(changes.map((c) => c.item_id)).not.toContain(h.b.migratedLab.itemId);
  });
});
