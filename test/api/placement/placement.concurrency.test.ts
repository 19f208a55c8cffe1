import { describe, expect, it } from 'vitest';
import { setHazardsIn } from '../../../src/hazards/repository.js';
import { createItem } from '../../../src/inventory/items.js';
import { useHarness } from '../../helpers/use-harness.js';
import { activeCount, addInstance, scenario, setModes } from './_placement.js';

// Two placements racing for the last litre (issue 26, docs/safety.md "The race"): the area holds 4 L of 5 L, each
// of two concurrent writes adds 1 L; in block mode exactly one may pass. The check and the write run under the
// area's row lock (PostgreSQL) or the one writer (SQLite), so the second sees the first's litre. Real concurrent
// requests through the app, several rounds, on both databases.

const h = useHarness();
const ROUNDS = 3;

const statuses = (rs: { statusCode: number }[]) => rs.map((r) => r.statusCode).sort();

describe('racing for the last litre', () => {
  it('two instance adds of two solvents (no shared item lock): one 201, one 409, the area ends at its limit', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const s = await scenario(h);
      await setModes(h, s.labId, 'warn', 'block');
      const lab = h.a.migratedLab;
      const ethanol = await createItem(h.deps, h.a.admin.actor, { labId: lab.id, name: 'Ethanol', typeId: lab.typeId, unitSize: '1 L' });
      await setHazardsIn(
        h.deps.db,
        { kind: 'item', id: ethanol.id },
        { labId: lab.id, codes: ['H225'], userId: h.a.admin.id, now: new Date().toISOString() },
      );
      const rs = await Promise.all([addInstance(h, s.acetone.itemId, s.cabinetId, '1'), addInstance(h, ethanol.id, s.cabinetId, '1')]);
      expect(statuses(rs), rs.map((r) => r.body).join('\n')).toEqual([201, 409]);
      expect((await activeCount(h, s.acetone.itemId)) + (await activeCount(h, ethanol.id))).toBe(2);
    }
  });

  it('two approvals of 1 L each: one approved, one refused (the approved litre counts until it arrives)', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const s = await scenario(h);
      await setModes(h, s.labId, 'warn', 'block');
      const catalog = (
        await h.deps.db.selectFrom('inventory_items').select('catalog_number').where('id', '=', s.acetone.itemId).executeTakeFirstOrThrow()
      ).catalog_number!;
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await h.call(h.a.member.token, {
          method: 'POST',
          url: '/order-requests',
          payload: {
            lab_id: s.labId,
            type_id: h.a.migratedLab.typeId,
            name: 'Acetone',
            vendor_name: s.vendor,
            catalog_number: catalog,
            price: { amount: '1000', currency: 'USD' },
            quantity: 1,
          },
        });
        expect(res.statusCode, res.body).toBe(201);
        ids.push(res.json().id);
      }
      // An approved request's litre counts until it arrives, so only one of the two fits.
      const rs = await Promise.all(
        ids.map((id) => h.call(h.a.admin.token, { method: 'PUT', url: `/order-requests/${id}`, payload: { status: 'APPROVED' } })),
      );
      expect(statuses(rs), rs.map((r) => r.body).join('\n')).toEqual([200, 409]);
      expect(rs.find((r) => r.statusCode === 409)!.json().code).toBe('limit_exceeded');
    }
  });
});
