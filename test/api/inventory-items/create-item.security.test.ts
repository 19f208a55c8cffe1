// POST /inventory-items: docs/product.md §5 (legacy lab: quantity/lot/expiry/location on the item; migrated lab: instances,
// legacy-only fields 422) and §7 (inventory-item.created with instances and lab.uses_instances).

import type { InjectOptions } from 'fastify';
import { describe, it } from 'vitest';
import { itemFixture } from '../../helpers/items.js';
import { useHarness } from '../../helpers/use-harness.js';
import { expectError, revokedToken } from './_helpers.js';

const h = useHarness();
const { unchangedBy } = itemFixture(h);

const post = (token: string | null, payload: unknown, extra: Partial<InjectOptions> = {}) =>
  h.call(token, { method: 'POST', url: '/inventory-items', payload: payload as any, ...extra });

const unchanged = (token: string | null, payload: unknown, extra: Partial<InjectOptions> = {}) =>
  unchangedBy(() => post(token, payload, extra));

describe('POST /inventory-items (security)', () => {
  it('401 without a token, with an unknown token and with a revoked token; nothing is written', async () => {
    const revoked = await revokedToken(h, h.a);
    for (const token of [null, 'lst_unknown', revoked]) {
      expectError(await unchanged(token, { lab_id: h.a.legacyLab.id, name: 'X' }), 401, 'unauthorized');
    }
  });

  it('org A tokens get 404 for org B labs, types and locations; nothing is written', async () => {
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      expectError(await unchanged(token, { lab_id: h.b.legacyLab.id, name: 'Intruder', quantity: '1' }), 404, 'not_found');
      expectError(
        await unchanged(token, {
          lab_id: h.b.migratedLab.id,
          name: 'Intruder',
          instances: [{ quantity: '1', location_id: h.b.migratedLab.locationIds[0] }],
        }),
        404,
        'not_found',
      );
    }
    expectError(await unchanged(h.a.admin.token, { lab_id: h.a.legacyLab.id, name: 'X', type_id: h.b.legacyLab.typeId }), 404, 'not_found');
  });

  it('the member gets 404 for the lab they do not belong to; the outsider for every lab', async () => {
    expectError(await unchanged(h.a.member.token, { lab_id: h.a.otherLab.id, name: 'Sneaky' }), 404, 'not_found');
    for (const lab of [h.a.legacyLab.id, h.a.migratedLab.id, h.a.otherLab.id]) {
      expectError(await unchanged(h.a.outsider.token, { lab_id: lab, name: 'Sneaky' }), 404, 'not_found');
    }
  });
});
