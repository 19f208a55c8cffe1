// GET /labs/{id}/locations: another organization's lab, a lab the member is not in, and no token.
import { describe, expect, it } from 'vitest';
import { createLab } from '../../../src/labs/service.js';
import { createLocation } from '../../../src/locations/service.js';
import { expectError } from '../../helpers/errors.js';
import { locationFixture } from '../../helpers/locations.js';
import { useHarness } from '../../helpers/use-harness.js';

/** A migrated lab of org A that the member does not belong to, with one location. */
let hiddenLabId: string;
const h = useHarness({}, async (h) => {
  hiddenLabId = (
    await createLab(h.deps.db, h.a.admin.actor, { organizationId: h.a.orgId, name: 'Hidden migrated lab', usesInstances: true })
  ).id;
  await createLocation(h.deps.db, h.a.admin.actor, { labId: hiddenLabId, parentId: null, name: 'Secret room' });
});
const { admin } = locationFixture(h);

describe('GET /labs/{id}/locations (security)', () => {
  it("gives 404 for another organization's lab", async () => {
    expect((await h.call(admin(), { method: 'GET', url: `/labs/${h.b.migratedLab.id}/locations` })).statusCode).toBe(404);
  });

  it("org A tokens get 404 and no data for org B's labs", async () => {
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const lab of [h.b.migratedLab.id, h.b.legacyLab.id]) {
        const res = await h.call(token, { method: 'GET', url: `/labs/${lab}/locations` });
        expectError(res, 404, 'not_found');
        expect(res.body).not.toMatch(/Room 101|Freezer A|Shelf 2/);
      }
    }
  });

  it('lets a member work only in their labs, and needs a token', async () => {
    expect((await h.call(h.a.outsider.token, { method: 'GET', url: `/labs/${h.a.migratedLab.id}/locations` })).statusCode).toBe(404);
    expect((await h.call(null, { method: 'GET', url: `/labs/${h.a.migratedLab.id}/locations` })).statusCode).toBe(401);
  });

  it('the member gets 404 for a lab they do not belong to, without its locations; the admin lists them', async () => {
    const res = await h.call(h.a.member.token, { method: 'GET', url: `/labs/${hiddenLabId}/locations` });
    expectError(res, 404, 'not_found');
    expect(res.body).not.toContain('Secret room');
    const asAdmin = await h.call(admin(), { method: 'GET', url: `/labs/${hiddenLabId}/locations` });
    expect(asAdmin.statusCode, asAdmin.body).toBe(200);
    expect(asAdmin.json().map((l: any) => l.name)).toEqual(['Secret room']);
  });
});
