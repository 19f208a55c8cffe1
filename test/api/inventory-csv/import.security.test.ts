// POST /labs/{id}/inventory/import: another organization's lab, a lab the member is not in, and no token.
import { describe, expect, it } from 'vitest';
import { revokedToken } from '../../helpers/data.js';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { importCsv, inventorySnapshot } from './_helpers.js';

const h = useHarness();

const csv = 'name,quantity,location\nIntruder,1,Room 101 / Freezer A\n';

describe('POST /labs/{id}/inventory/import (security)', () => {
  it("org A tokens get 404 for org B's labs, dry run or not, with no data; nothing written", async () => {
    const before = await inventorySnapshot(h);
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const lab of [h.b.migratedLab.id, h.b.legacyLab.id]) {
        for (const dry of [true, false]) {
          const res = await importCsv(h, token, lab, csv, dry);
          expectError(res, 404, 'not_found');
          expect(res.body).not.toContain('lab B');
        }
      }
    }
    expect(await inventorySnapshot(h)).toEqual(before);
  });

  it('a member gets 404 for a lab they do not belong to, the outsider for every lab; the admin imports there', async () => {
    const before = await inventorySnapshot(h);
    expectError(await importCsv(h, h.a.member.token, h.a.otherLab.id, csv), 404, 'not_found');
    expectError(await importCsv(h, h.a.outsider.token, h.a.migratedLab.id, csv), 404, 'not_found');
    expect(await inventorySnapshot(h)).toEqual(before);
    expect((await importCsv(h, h.a.admin.token, h.a.otherLab.id, 'name\nAllowed\n')).statusCode).toBe(200);
  });

  it('401 without a token, with an unknown token and with a revoked token; nothing written', async () => {
    const revoked = await revokedToken(h, h.a);
    const before = await inventorySnapshot(h);
    for (const token of [null, 'lst_unknown', revoked])
      expectError(await importCsv(h, token, h.a.migratedLab.id, csv), 401, 'unauthorized');
    expect(await inventorySnapshot(h)).toEqual(before);
  });

  it("a type named in the file is looked up in the lab's own types only", async () => {
    // Org B's migrated lab has a type "Antibody" too; org A's legacy lab has "Reagent" but not "Antibody".
    const res = await importCsv(h, h.a.admin.token, h.a.legacyLab.id, 'name,type\nX,Antibody\n', true);
    expect(res.json().errors.map((e: any) => e.code)).toEqual(['unknown_type']);
  });
});
