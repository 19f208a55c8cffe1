// GET /labs/{id}/hazard-report refusals (docs/product.md §2): 401, 404, 422, each in the error shape; a read
// changes nothing.
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { dbState, expectError, expectValidation, revokedToken, UNKNOWN_ID } from '../inventory-items/_helpers.js';
import { reportUrl } from './_report.js';

const h = useHarness();
const lab = () => h.a.migratedLab.id;

describe('hazard report (errors)', () => {
  it('401 without a valid token, whatever the format', async () => {
    const revoked = await revokedToken(h, h.a);
    for (const token of [null, 'lst_unknown', revoked])
      for (const query of ['', 'format=csv', 'format=pdf'])
        expectError(await h.call(token, { method: 'GET', url: reportUrl(lab(), query) }), 401, 'unauthorized');
  });

  it('404 for a lab or a location that does not exist, or a location of another lab', async () => {
    expectError(await h.call(h.a.admin.token, { method: 'GET', url: reportUrl(UNKNOWN_ID) }), 404, 'not_found');
    expectError(await h.call(h.a.admin.token, { method: 'GET', url: reportUrl(lab(), `location_id=${UNKNOWN_ID}`) }), 404, 'not_found');
    // A location of the same organization's other lab is not a location of this one.
    const other = await h.call(h.a.admin.token, {
      method: 'GET',
      url: reportUrl(h.a.legacyLab.id, `location_id=${h.a.migratedLab.locationIds[0]}`),
    });
    expectError(other, 404, 'not_found');
  });

  it('422 for an id that is not a UUID, an unknown grouping or format', async () => {
    expectValidation(await h.call(h.a.admin.token, { method: 'GET', url: reportUrl('nope') }), 'id');
    expectValidation(await h.call(h.a.admin.token, { method: 'GET', url: reportUrl(lab(), 'by=floor') }), 'by');
    expectValidation(await h.call(h.a.admin.token, { method: 'GET', url: reportUrl(lab(), 'format=xlsx') }), 'format');
    expectValidation(await h.call(h.a.admin.token, { method: 'GET', url: reportUrl(lab(), 'location_id=shelf') }), 'location_id');
  });

  it('an empty report is a report: no groups, and a PDF that says so', async () => {
    const res = await h.call(h.a.admin.token, { method: 'GET', url: reportUrl(h.a.otherLab.id) });
    expect(res.statusCode).toBe(200);
    expect(res.json().groups).toEqual([]);
    const csv = await h.call(h.a.admin.token, { method: 'GET', url: reportUrl(h.a.otherLab.id, 'format=csv') });
    expect(csv.body.split('\r\n').filter(Boolean)).toHaveLength(1);
  });

  it('a read writes nothing', async () => {
    const before = await dbState(h);
    for (const query of ['', 'by=building&format=csv', 'by=control-area&format=pdf'])
      await h.call(h.a.admin.token, { method: 'GET', url: reportUrl(lab(), query) });
    expect(await dbState(h)).toEqual(before);
  });
});
