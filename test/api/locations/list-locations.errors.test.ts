// GET /labs/{id}/locations: a lab id that is not a UUID, or names no lab.
import { describe, it } from 'vitest';
import { revokedToken } from '../../helpers/data.js';
import { expectError, expectValidation } from '../../helpers/errors.js';
import { UNKNOWN_ID } from '../../helpers/shapes.js';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

const list = (token: string | null, labId: string) => h.call(token, { method: 'GET', url: `/labs/${labId}/locations` });

describe('GET /labs/{id}/locations (errors)', () => {
  it('401 with an unknown token and with a revoked token', async () => {
    const revoked = await revokedToken(h, h.a);
    for (const token of ['lst_unknown', revoked]) expectError(await list(token, h.a.migratedLab.id), 401, 'unauthorized');
  });

  it.each(['abc', '42', `${UNKNOWN_ID}0`])('422 naming id for a non-UUID lab id (%s)', async (id) => {
    expectValidation(await list(h.a.admin.token, id), 'id');
  });

  it('404 for an unknown lab, and for a location id used as a lab id', async () => {
    expectError(await list(h.a.admin.token, UNKNOWN_ID), 404, 'not_found');
    expectError(await list(h.a.admin.token, h.a.migratedLab.locationIds[0]!), 404, 'not_found');
  });
});
