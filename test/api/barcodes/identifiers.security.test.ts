// A container's GTIN and serial (docs/scanning.md "Identifiers"): every endpoint needs a token; another
// organization's item or instance is 404 and learns nothing; finding by a barcode only ever answers containers of
// labs the caller sees (another organization's admin, a person in no lab: none).

import { describe, expect, it } from 'vitest';
import { expectError } from '../../helpers/errors.js';
import { useHarness } from '../../helpers/use-harness.js';
import { addedInstance, findBy, freshItem, GTIN, getIds, listIds, putIds } from './_identifiers.js';

const SERIAL = 'SECRET-SN-77';
let item = { itemId: '', instanceId: '' };
const h = useHarness({}, async (started) => {
  const itemId = await freshItem(started);
  const instanceId = await addedInstance(started, started.a.member.token, itemId, {
    quantity: '1',
    lot_number: 'SECRET-LOT',
    identifiers: { gtin: GTIN, serial_number: SERIAL },
  });
  item = { itemId, instanceId };
});
const SCAN = `(01)${GTIN}(21)${SERIAL}`;

describe('container identifiers (security)', () => {
  it('401 on every endpoint without a token or with an unknown one', async () => {
    for (const token of [null, 'lst_unknown']) {
      expectError(await getIds(h, token, item.itemId, item.instanceId), 401, 'unauthorized');
      expectError(await putIds(h, token, item.itemId, item.instanceId, { gtin: null, serial_number: null }), 401, 'unauthorized');
      expectError(await listIds(h, token, item.itemId), 401, 'unauthorized');
      const found = await findBy(h, token, SCAN);
      expectError(found, 401, 'unauthorized');
      expect(found.body).not.toContain(SERIAL);
    }
  });

  it("another organization's admin gets 404 for the item and its instance, and cannot change them", async () => {
    const b = h.b.admin.token;
    expectError(await getIds(h, b, item.itemId, item.instanceId), 404, 'not_found');
    expectError(await listIds(h, b, item.itemId), 404, 'not_found');
    const put = await putIds(h, b, item.itemId, item.instanceId, { gtin: null, serial_number: 'TAKEN' });
    expectError(put, 404, 'not_found');
    expect((await getIds(h, h.a.member.token, item.itemId, item.instanceId)).json().serial_number).toBe(SERIAL);
  });

  it('a person of the organization in no lab gets 404 too', async () => {
    expectError(await getIds(h, h.a.outsider.token, item.itemId, item.instanceId), 404, 'not_found');
    expectError(await putIds(h, h.a.outsider.token, item.itemId, item.instanceId, { gtin: null, serial_number: null }), 404, 'not_found');
  });

  it('scanning the barcode finds the container for its lab, and nothing for another organization or a person in no lab', async () => {
    const mine = (await findBy(h, h.a.member.token, SCAN)).json();
    expect(mine.containers.map((c: any) => c.instance_id)).toEqual([item.instanceId]);
    for (const token of [h.b.admin.token, h.a.outsider.token]) {
      const res = await findBy(h, token, SCAN);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().containers).toEqual([]);
      expect(res.body).not.toContain('SECRET-LOT');
    }
  });
});
