// GET /labs/{id}/inventory/export: another organization's lab, a lab the member is not in, and no token.
import { describe, expect, it } from 'vitest';
import { revokedToken } from '../../helpers/data.js';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { exportCsv } from './_helpers.js';

const h = useHarness();

describe('GET /labs/{id}/inventory/export (security)', () => {
  it("org A tokens get 404 for org B's labs, never a row of them", async () => {
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const lab of [h.b.migratedLab.id, h.b.legacyLab.id, h.b.otherLab.id]) {
        const res = await exportCsv(h, token, lab);
        expectError(res, 404, 'not_found');
        expect(res.body).not.toContain('Ethanol B');
        expect(res.body).not.toContain('Anti-GFP B');
        expect(res.headers['content-disposition']).toBeUndefined();
      }
    }
  });

  it('a member gets 404 for a lab they do not belong to, the outsider for every lab; the admin sees every lab of the organization', async () => {
    expectError(await exportCsv(h, h.a.member.token, h.a.otherLab.id), 404, 'not_found');
    for (const lab of [h.a.migratedLab.id, h.a.legacyLab.id]) expectError(await exportCsv(h, h.a.outsider.token, lab), 404, 'not_found');
    expect((await exportCsv(h, h.a.admin.token, h.a.otherLab.id)).statusCode).toBe(200);
  });

  it('401 without a token, with an unknown token and with a revoked token', async () => {
    const revoked = await revokedToken(h, h.a);
    for (const token of [null, 'lst_unknown', revoked]) expectError(await exportCsv(h, token, h.a.migratedLab.id), 401, 'unauthorized');
  });
});
