// POST /locations: another organization's labs and parents, a lab the member is not in, and no token.
import { describe, expect, it } from 'vitest';
import { createLab } from '../../../src/labs/service.js';
import { revokedToken } from '../../helpers/data.js';
import { expectError } from '../../helpers/errors.js';
import { locationFixture } from '../../helpers/locations.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();
const { create, locationRows } = locationFixture(h);

describe('POST /locations (security)', () => {
  it("gives 404 for another organization's lab or parent, and changes nothing", async () => {
    const [bRoom] = h.b.migratedLab.locationIds;
    const before = await locationRows();
    expect((await create('X', null, h.b.migratedLab.id)).statusCode).toBe(404);
    expect((await create('X', bRoom!)).statusCode).toBe(404);
    expect(await locationRows()).toEqual(before);
  });

  it('org A tokens get 404 for org B labs and parents, with no data', async () => {
    const before = await locationRows();
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      const res = await create('Intruder', null, h.b.migratedLab.id, token);
      expectError(res, 404, 'not_found');
      expect(res.body).not.toContain('Migrated lab B');
      expectError(await create('Intruder', h.b.migratedLab.locationIds[0]!, h.a.migratedLab.id, token), 404, 'not_found');
    }
    expect(await locationRows()).toEqual(before);
  });

  it('401 without a token, with an unknown token and with a revoked token; nothing written', async () => {
    const revoked = await revokedToken(h, h.a);
    const before = await locationRows();
    for (const token of [null, 'lst_unknown', revoked]) {
      expectError(
        await h.call(token, { method: 'POST', url: '/locations', payload: { lab_id: h.a.migratedLab.id, name: 'Anonymous' } }),
        401,
        'unauthorized',
      );
    }
    expect(await locationRows()).toEqual(before);
  });

  it('the member gets 404 for a migrated lab they do not belong to; the outsider for every lab; the admin creates there', async () => {
    const hidden = await createLab(h.deps.db, h.a.admin.actor, {
      organizationId: h.a.orgId,
      name: 'Hidden migrated lab',
      usesInstances: true,
    });
    const before = await locationRows();
    expectError(await create('Sneaky', null, hidden.id, h.a.member.token), 404, 'not_found');
    for (const lab of [hidden.id, h.a.migratedLab.id]) expectError(await create('Sneaky', null, lab, h.a.outsider.token), 404, 'not_found');
    expect(await locationRows()).toEqual(before);
    expect((await create('Allowed', null, hidden.id)).statusCode).toBe(201);
  });
});
