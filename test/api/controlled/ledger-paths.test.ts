// Every path that changes a controlled item's amount or its containers writes its ledger entries in the same
// transaction (docs/controlled-substances.md): the app's adjustment, the contract's PUTs, moves, archiving, adding a
// container, receiving an order, a count's apply; CSV import cannot touch an existing item; deleting is refused.
// Runs on SQLite and (with DATABASE_URL) PostgreSQL.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { importCsv } from '../inventory-csv/_helpers.js';
import { createOrder, moveThrough, orderBody } from '../order-requests/_helpers.js';
import { apply, count, started } from '../stocktake/_stocktake.js';
import { changesOf, get, ledgerRows, makeControlled, mark } from './_controlled.js';

const h = useHarness();

const send = async (method: 'PUT' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => {
  const res = await h.call(h.a.admin.token, { method, url, ...(payload === undefined ? {} : { payload: payload as any }) });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res;
};
const instanceUrl = (itemId: string, instanceId: string) => `/inventory-items/${itemId}/instances/${instanceId}`;

describe('the ledger of a controlled item in a lab that uses instances', () => {
  it('the contract PUT of an instance quantity: a use, or a receipt when it grows', async () => {
    const c = await makeControlled(h);
    await send('PUT', instanceUrl(c.itemId, c.instanceIds[0]), { quantity: '3' });
    await send('PUT', instanceUrl(c.itemId, c.instanceIds[1]), { quantity: '2.5' });
    const entries = await changesOf(h, h.a.admin.token, c.itemId);
    expect(entries.map((e) => [e.kind, e.amount, e.change, e.balance, e.instance_id, e.source])).toEqual([
      ['use', '2', '-2', '5', c.instanceIds[0], 'app'],
      ['receipt', '0.5', '0.5', '5.5', c.instanceIds[1], 'app'],
    ]);
  });

  it('a move of a container (PATCH): its amount, from where to where; the balance stays', async () => {
    const c = await makeControlled(h);
    await send('PATCH', instanceUrl(c.itemId, c.instanceIds[0]), { location_id: c.places[1] });
    const [move] = await changesOf(h, h.a.admin.token, c.itemId);
    expect(move).toMatchObject({
      kind: 'move',
      amount: '5',
      change: '0',
      balance: '7',
      from_location: { id: c.places[0], name: expect.stringMatching(/^Safe /) },
      to_location: { id: c.places[1], name: expect.stringMatching(/^Bench /) },
    });
  });

  it('archiving a container is a disposal of what it held, with the reason', async () => {
    const c = await makeControlled(h);
    await send('POST', `${instanceUrl(c.itemId, c.instanceIds[1])}/archive`, { reason: 'expired, destroyed' });
    const [disposal] = await changesOf(h, h.a.admin.token, c.itemId);
    expect(disposal).toMatchObject({ kind: 'disposal', amount: '2', change: '-2', balance: '5', note: 'expired, destroyed' });
  });

  it('adding a container is a receipt', async () => {
    const c = await makeControlled(h);
    await send('POST', `/inventory-items/${c.itemId}/instances`, { quantity: '10', location_id: c.places[0] });
    const [receipt] = await changesOf(h, h.a.admin.token, c.itemId);
    expect(receipt).toMatchObject({ kind: 'receipt', amount: '10', change: '10', balance: '17', source: 'app' });
  });

  it('receiving an order into it is a receipt from receiving', async () => {
    const c = await makeControlled(h);
    const item = (await get(h, h.a.admin.token, `/inventory-items/${c.itemId}`)).json();
    const order = await createOrder(
      h,
      h.a.admin.token,
      orderBody(h.a.migratedLab, { vendor_name: item.vendor, catalog_number: item.catalog_number, quantity: 3 }),
    );
    await moveThrough(h, h.a.admin.token, order.id, ['ORDERED', 'RECEIVED']);
    const [receipt] = await changesOf(h, h.a.admin.token, c.itemId);
    expect(receipt).toMatchObject({ kind: 'receipt', amount: '3', change: '3', balance: '10', source: 'receiving' });
  });

  it("a count's apply is a count entry from the stocktake", async () => {
    const c = await makeControlled(h);
    const view = await started(h, h.a.admin.token, c.places[0]);
    expect((await count(h, h.a.admin.token, view.id, c.instanceIds[0], { quantity: '4.5' })).statusCode).toBe(200);
    const res = await apply(h, h.a.admin.token, view.id);
    expect(res.statusCode, res.body).toBe(200);
    const [counted] = await changesOf(h, h.a.admin.token, c.itemId);
    expect(counted).toMatchObject({ kind: 'count', amount: '0.5', change: '-0.5', balance: '6.5', source: 'stocktake' });
  });

  it('CSV import creates items only: a row naming the controlled item is refused and writes nothing', async () => {
    const c = await makeControlled(h);
    const before = await ledgerRows(h);
    const res = await importCsv(h, h.a.admin.token, h.a.migratedLab.id, `item_id,name,quantity\n${c.itemId},Ketamine,1\n`);
    expect(res.statusCode, res.body).toBe(422);
    expect(await ledgerRows(h)).toBe(before);
  });

  it('a controlled item cannot be deleted (409): its ledger would lose its subject', async () => {
    const c = await makeControlled(h);
    const before = await ledgerRows(h);
    const res = await h.call(h.a.admin.token, { method: 'DELETE', url: `/inventory-items/${c.itemId}` });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toMatch(/controlled substance/);
    expect((await get(h, h.a.admin.token, `/inventory-items/${c.itemId}`)).statusCode).toBe(200);
    expect(await ledgerRows(h)).toBe(before);
  });
});

describe('the ledger of a controlled item in a legacy lab', () => {
  it('the contract PUT of the quantity, an adjustment and a move of the item', async () => {
    const tag = randomUUID().slice(0, 8);
    const created = await send('POST', '/inventory-items', {
      lab_id: h.a.legacyLab.id,
      name: `Morphine ${tag}`,
      vendor: 'Sigma',
      catalog_number: `M-${tag}`,
      quantity: '10',
      location: { name: 'Safe' },
    });
    const itemId = created.json().id;
    expect((await mark(h, h.a.admin.token, itemId)).statusCode).toBe(201);
    await send('PUT', `/inventory-items/${itemId}`, { quantity: '8' });
    await send('POST', `/inventory-items/${itemId}/adjustments`, { delta: '-1.5', note: 'theatre' });
    await send('PATCH', `/inventory-items/${itemId}`, { location: { name: 'Cabinet 2' } });
    const entries = await changesOf(h, h.a.admin.token, itemId);
    expect(entries.map((e) => [e.kind, e.amount, e.change, e.balance])).toEqual([
      ['use', '2', '-2', '8'],
      ['use', '1.5', '-1.5', '6.5'],
      ['move', '6.5', '0', '6.5'],
    ]);
    expect(entries[1].note).toBe('theatre');
    expect(entries[2].note).toBe('Location: Safe → Cabinet 2');
  });
});
