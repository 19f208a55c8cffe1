// POST /labels through the lab's visibility: no token is 401; another organization's instances, items and locations,
// or a lab the member is not in, are 404 (never a label, never a hint); "received since" and "stored at" print only
// what the caller sees; a name cannot inject ZPL commands.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLab } from '../../../src/labs/service.js';
import { createLocation } from '../../../src/locations/service.js';
import { expectError } from '../../helpers/errors.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { codeOf, print } from './_labels.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

describe('POST /labels (security)', () => {
  it('401 without a token or with an unknown one', async () => {
    for (const token of [null, 'lst_unknown'])
      expectError(
        await print(h, token, { format: 'pdf', layout: 'sheet-30', instance_ids: h.a.migratedLab.instanceIds }),
        401,
        'unauthorized',
      );
  });

  it("another organization's ids are 404 to every token of A, mixed with A's own or alone", async () => {
    const b = h.b.migratedLab;
    for (const token of [h.a.admin.token, h.a.member.token, h.a.outsider.token]) {
      for (const payload of [
        { instance_ids: [...h.a.migratedLab.instanceIds, b.instanceIds[0]] },
        { item_ids: [h.b.legacyLab.itemId] },
        { item_ids: [b.itemId] },
        { location_ids: [b.locationIds[0]] },
        { stored_in_location_id: b.locationIds[0], include_sublocations: true },
      ]) {
        const res = await print(h, token, { format: 'zpl', layout: 'sheet-30', ...payload });
        expectError(res, 404, 'not_found');
        expect(res.body).not.toContain((await codeOf(h, 'instance', b.instanceIds[0]!))!);
      }
      // Everything received since long ago: none of B's.
      const all = await print(h, token, { format: 'zpl', layout: 'sheet-30', received_since: '2000-01-01T00:00:00Z' });
      expect(all.statusCode).toBe(200);
      for (const id of b.instanceIds) expect(all.body).not.toContain((await codeOf(h, 'instance', id))!);
    }
  });

  it("a lab the member is not in: its location's labels are 404 to the member; its goods are not in their 'received since'", async () => {
    const hidden = await createLab(h.deps.db, h.a.admin.actor, {
      organizationId: h.a.orgId,
      name: 'Hidden labels lab',
      usesInstances: true,
    });
    const room = await createLocation(h.deps.db, h.a.admin.actor, { labId: hidden.id, parentId: null, name: 'Hidden room' });
    expectError(await print(h, h.a.member.token, { format: 'pdf', layout: 'cryo', location_ids: [room.id] }), 404, 'not_found');
    expectError(await print(h, h.a.member.token, { format: 'pdf', layout: 'cryo', stored_in_location_id: room.id }), 404, 'not_found');
    const admin = await print(h, h.a.admin.token, { format: 'zpl', layout: 'cryo', location_ids: [room.id] });
    expect(admin.body).toContain((await codeOf(h, 'location', room.id))!);
  });

  it('a name with ZPL commands in it stays text: ^ and ~ are escaped in ^FH fields', async () => {
    const created = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/inventory-items',
      payload: { lab_id: h.a.legacyLab.id, type_id: h.a.legacyLab.typeId, name: 'Evil ^XZ^XA^FDinjected~JA', quantity: '1' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const res = await print(h, h.a.admin.token, { format: 'zpl', layout: 'roll-2x1', item_ids: [created.json().id] });
    expect(res.body).toContain('^FH^FDEvil _5EXZ_5EXA_5EFDinjected_7E');
    expect(res.body.match(/\^XA/g)).toHaveLength(1);
    expect(res.body.match(/\^XZ/g)).toHaveLength(1);
    expect(res.body).not.toContain('~');
  });
});
