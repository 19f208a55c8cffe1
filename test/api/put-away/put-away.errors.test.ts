// Put-away's refusals (docs/api.md "Put-away", docs/errors.md): malformed ids and pages, unknown body fields, a
// location of another lab, a stale ETag, an archived instance; each changes nothing.

import { describe, expect, it } from 'vitest';
import { dbState } from '../../helpers/data.js';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { UNKNOWN_ID } from '../../helpers/shapes.js';
import { useHarness } from '../../helpers/use-harness.js';
import { idsOf, listLab, putAway, receive } from './_put-away.js';

const h = useHarness();

const lab = () => h.a.migratedLab;

async function unchanged<T>(fn: () => Promise<T>): Promise<T> {
  const before = await dbState(h);
  const res = await fn();
  expect(await dbState(h)).toEqual(before);
  return res;
}

describe('put-away (errors)', () => {
  it('422 for a malformed lab id, lab_id, page or per_page; 404 for an unknown lab', async () => {
    expectValidation(await listLab(h, h.a.admin.token, 'not-a-uuid'), 'id');
    expectValidation(await h.call(h.a.admin.token, { method: 'GET', url: '/put-away?lab_id=nope' }), 'lab_id');
    expectError(await listLab(h, h.a.admin.token, lab().id, '?page=0'), 422, 'validation_failed');
    expectError(await listLab(h, h.a.admin.token, lab().id, '?per_page=101'), 422, 'validation_failed');
    expectError(await listLab(h, h.a.admin.token, UNKNOWN_ID), 404, 'not_found');
  });

  it('POST …/put-away: unknown or malformed fields are 422 naming them; nothing changes and it stays listed', async () => {
    const r = await receive(h, h.a.admin.token, lab());
    for (const [payload, field] of [
      [{ quantity: '3' }, 'quantity'],
      [{ expiration_date: '31/12/2027' }, 'expiration_date'],
      [{ location_id: 'shelf' }, 'location_id'],
      [{ lot_number: 7 }, 'lot_number'],
    ] as const) {
      expectValidation(await unchanged(() => putAway(h, h.a.admin.token, r.itemId, r.instanceId, payload)), field);
    }
    expect(idsOf(await listLab(h, h.a.admin.token, lab().id))).toContain(r.instanceId);
  });

  it('404 for a location of another lab, an unknown or archived instance; 412 for a stale ETag; nothing changes', async () => {
    const r = await receive(h, h.a.admin.token, lab());
    const otherLabLocation = h.b.migratedLab.locationIds[0]!;
    expectError(
      await unchanged(() => putAway(h, h.a.admin.token, r.itemId, r.instanceId, { location_id: otherLabLocation })),
      404,
      'not_found',
    );
    expectError(await unchanged(() => putAway(h, h.a.admin.token, r.itemId, UNKNOWN_ID, {})), 404, 'not_found');
    expectError(
      await unchanged(() => putAway(h, h.a.admin.token, r.itemId, r.instanceId, { lot_number: 'X' }, { 'if-match': '"v0"' })),
      412,
      'precondition_failed',
    );
    expect(idsOf(await listLab(h, h.a.admin.token, lab().id))).toContain(r.instanceId);
    const archived = await h.call(h.a.admin.token, {
      method: 'POST',
      url: `/inventory-items/${r.itemId}/instances/${r.instanceId}/archive`,
      payload: {},
    });
    expect(archived.statusCode).toBe(200);
    expectError(await unchanged(() => putAway(h, h.a.admin.token, r.itemId, r.instanceId, {})), 404, 'not_found');
  });

  it('archive: a reason that is not text, or an unknown field, is 422; nothing changes', async () => {
    const r = await receive(h, h.a.admin.token, lab());
    const url = `/inventory-items/${r.itemId}/instances/${r.instanceId}/archive`;
    expectValidation(await unchanged(() => h.call(h.a.admin.token, { method: 'POST', url, payload: { reason: 5 } })), 'reason');
    expectValidation(await unchanged(() => h.call(h.a.admin.token, { method: 'POST', url, payload: { why: 'x' } })), 'why');
  });
});
