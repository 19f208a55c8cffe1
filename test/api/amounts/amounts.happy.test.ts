// GET /inventory-items/{id}/amount and GET /inventory-item-amounts (docs/hazard-reports.md "Amounts"): quantity ×
// unit size in its unit family, exact decimals, unknown when the size cannot be read; the contract's item unchanged.
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { addItem, getItemJson, ITEM_KEYS, keysOf } from '../inventory-items/_helpers.js';
import { amountRequests } from './_amounts.js';

const h = useHarness();
const { getAmount, getAmounts } = amountRequests(h);

describe('item amount (happy)', () => {
  it("a legacy item: its quantity × unit size (the fixture's 3 × 1 L) and no instances", async () => {
    const res = await getAmount(h.a.member.token, h.a.legacyLab.itemId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      item_id: h.a.legacyLab.itemId,
      quantity: '3',
      unit_size: '1 L',
      total: { family: 'volume', amount: '3', unit: 'L', text: '3 L' },
      instances: [],
    });
  });

  it('a migrated item: the total and each active instance, exact (3 × 0.1 L is 0.3 L)', async () => {
    const item = await addItem(h, h.a.admin.actor, { labId: h.a.migratedLab.id, name: 'Ethanol absolute', unitSize: '100 mL' }, [
      { quantity: '3' },
      { quantity: '0.5' },
    ]);
    const res = await getAmount(h.a.member.token, item.id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      item_id: item.id,
      quantity: '3.5',
      unit_size: '100 mL',
      total: { family: 'volume', amount: '0.35', unit: 'L', text: '350 mL' },
      instances: [
        { instance_id: item.instances[0]!.id, quantity: '3', total: { family: 'volume', amount: '0.3', unit: 'L', text: '300 mL' } },
        { instance_id: item.instances[1]!.id, quantity: '0.5', total: { family: 'volume', amount: '0.05', unit: 'L', text: '50 mL' } },
      ],
    });
  });

  it('mass, counts and an unreadable size (unknown, never guessed)', async () => {
    const cases: [string, string, object][] = [
      ['4', '300 g', { family: 'mass', amount: '1.2', unit: 'kg', text: '1.2 kg' }],
      ['3', '500 tablets', { family: 'count', amount: '1500', unit: 'count', text: '1,500 tablets' }],
      ['2', '5 mg/mL', { family: 'unknown', amount: null, unit: null, text: null }],
      ['2', '2,5 kg', { family: 'mass', amount: '5', unit: 'kg', text: '5 kg' }],
    ];
    for (const [quantity, unitSize, total] of cases) {
      const item = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: `Sized ${unitSize}`, unitSize, quantity });
      const res = await getAmount(h.a.admin.token, item.id);
      expect(res.statusCode).toBe(200);
      expect(res.json().total, unitSize).toEqual(total);
    }
    const none = await addItem(h, h.a.admin.actor, { labId: h.a.legacyLab.id, name: 'No size', quantity: '1' });
    expect((await getAmount(h.a.admin.token, none.id)).json()).toMatchObject({
      unit_size: null,
      total: { family: 'unknown', amount: null, unit: null, text: null },
    });
  });

  it('follows a change of quantity, and leaves the public item as the contract has it', async () => {
    const before = await getItemJson(h, h.a.admin.token, h.a.legacyLab.itemId);
    const put = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/inventory-items/${h.a.legacyLab.itemId}`,
      payload: { quantity: '7.25' },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await getAmount(h.a.admin.token, h.a.legacyLab.itemId)).json().total).toEqual({
      family: 'volume',
      amount: '7.25',
      unit: 'L',
      text: '7.25 L',
    });
    const after = await getItemJson(h, h.a.admin.token, h.a.legacyLab.itemId);
    expect(keysOf(after.body)).toEqual(ITEM_KEYS);
    expect(keysOf(before.body)).toEqual(ITEM_KEYS);
  });

  it('several at once, in the order asked, each once', async () => {
    const ids = [h.a.migratedLab.itemId, h.a.legacyLab.itemId, h.a.migratedLab.itemId];
    const res = await getAmounts(h.a.admin.token, ids);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.map((a: { item_id: string }) => a.item_id)).toEqual([h.a.migratedLab.itemId, h.a.legacyLab.itemId]);
    expect(body[1]).toEqual((await getAmount(h.a.admin.token, h.a.legacyLab.itemId)).json());
    // The fixture's antibody has no unit size: unknown, with its instances listed.
    expect(body[0].total.family).toBe('unknown');
    expect(body[0].instances).toHaveLength(2);
  });
});
