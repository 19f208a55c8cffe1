// GET /labs/{id}/hazard-report (docs/product.md §3): visible exactly to those who see the lab. Another
// organization's lab, a lab the member does not belong to and any lab for a user of no lab are 404 in every
// format (never data); a location of another organization is 404 too.
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { bAdminTokenInA, expectError } from '../inventory-items/_helpers.js';
import { type ReportWorld, reportUrl, reportWorld } from './_report.js';

let w: ReportWorld;
const h = useHarness({}, async (h) => {
  w = await reportWorld(h);
});

async function hidden(token: string, labId: string, query = '') {
  for (const format of ['', 'format=csv', 'format=pdf']) {
    const res = await h.call(token, { method: 'GET', url: reportUrl(labId, [query, format].filter(Boolean).join('&')) });
    expectError(res, 404, 'not_found');
    expect(res.body).not.toContain('Ethanol');
  }
}

describe('hazard report (security)', () => {
  it("another organization's labs are not found, for its admin and members", async () => {
    for (const token of [h.b.admin.token, h.b.member.token]) {
      await hidden(token, h.a.migratedLab.id);
      await hidden(token, h.a.migratedLab.id, 'by=control-area');
    }
    await hidden(h.a.admin.token, h.b.migratedLab.id);
  });

  it('a member does not see a lab they do not belong to; a user of no lab sees none', async () => {
    await hidden(h.a.member.token, h.a.otherLab.id);
    await hidden(h.a.outsider.token, h.a.migratedLab.id);
  });

  it("another organization's location in the query is not found, even in a lab the caller sees", async () => {
    const res = await h.call(h.a.admin.token, {
      method: 'GET',
      url: reportUrl(h.a.migratedLab.id, `location_id=${h.b.migratedLab.locationIds[0]}`),
    });
    expectError(res, 404, 'not_found');
  });

  it('a member of the lab and the org admin see the same report', async () => {
    const member = await h.call(h.a.member.token, { method: 'GET', url: reportUrl(h.a.migratedLab.id, 'by=building') });
    const admin = await h.call(h.a.admin.token, { method: 'GET', url: reportUrl(h.a.migratedLab.id, 'by=building') });
    expect(member.statusCode).toBe(200);
    expect({ ...member.json(), generated_at: '' }).toEqual({ ...admin.json(), generated_at: '' });
    expect(member.body).toContain(w.ethanol);
  });

  it('a token is scoped to its organization, whatever its user is elsewhere', async () => {
    const token = await bAdminTokenInA(h);
    await hidden(token, h.b.migratedLab.id);
  });
});
