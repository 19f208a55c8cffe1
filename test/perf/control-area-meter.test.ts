import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setHazardsIn } from '../../src/hazards/repository.js';
import { createItem } from '../../src/inventory/items.js';
import { scenario } from '../api/placement/_placement.js';
import { type CountedApp, startCountedApp } from '../helpers/db-counter.js';
import { type Harness, startHarness } from '../helpers/harness.js';

// Issue 26 bench (docs/performance.md, "Control-area meter at 1,000,000 instances"): the meter and the limit check
// read the area's running totals per unit size and hazard statements (location_holdings, migration 0043), so the
// statements they run do not grow with the containers stored, and the meter reads no container at all: the items of
// unknown amount it names come from location_holding_items. And the sums are the exact ones, as one contribution per container gave. Timings are never
// asserted here (bench/control-area.mjs measures them).

let h: Harness;
let counted: CountedApp;
let app: FastifyInstance;
let statements: string[] = [];
const isSqlite = !/^postgres/i.test(process.env.DATABASE_URL ?? '');

beforeAll(async () => {
  h = await startHarness();
  counted = await startCountedApp(h, (s) => statements.push(s));
  app = counted.app;
});
afterAll(async () => {
  await counted?.close();
  await h?.close();
});

async function run(method: 'GET' | 'POST', url: string, payload?: object) {
  statements = [];
  const res = await app.inject({ method, url, payload, headers: { 'access-token': h.a.admin.token } });
  expect(res.statusCode, res.body).toBe(200);
  // Authentication's own statements (a token's first use, its once-a-minute touch) are not the endpoint's.
  return { body: res.json(), statements: statements.filter((q) => !/"access_tokens"/.test(q)) };
}

const line = (body: { lines: { category: string; amount: string }[] }, category: string) => body.lines.find((l) => l.category === category);

describe('the control-area meter and the limit check', () => {
  it('run as many statements for 40 containers of 10 items as for one container', async () => {
    const s = await scenario(h);
    const meterUrl = `/locations/${s.cabinetId}/control-area/meter`;
    const check = { location_id: s.cabinetId, items: [{ item_id: s.acetone.itemId, quantity: '1' }] };
    const before = { meter: await run('GET', meterUrl), check: await run('POST', '/placement-checks', check) };
    const at = { userId: h.a.admin.id, now: new Date().toISOString(), labId: s.labId };
    for (let i = 0; i < 10; i++) {
      const item = await createItem(
        h.deps,
        h.a.admin.actor,
        { labId: s.labId, name: `Hexane ${i}`, typeId: h.a.migratedLab.typeId, unitSize: i % 2 ? '500 mL' : '1 L' },
        Array.from({ length: 4 }, () => ({ quantity: '1', locationId: s.cabinetId })),
      );
      await setHazardsIn(h.deps.db, { kind: 'item', id: item.id }, { ...at, codes: i % 3 ? ['H225', 'H304'] : ['H225'] });
    }
    const after = { meter: await run('GET', meterUrl), check: await run('POST', '/placement-checks', check) };
    // 4 L of acetone, then 5 x 4 x 1 L and 5 x 4 x 0.5 L of hexane more.
    expect(line(before.meter.body, 'flammable-liquid-ib-ic')?.amount).toBe('4');
    expect(line(after.meter.body, 'flammable-liquid-ib-ic')?.amount).toBe('34');
    expect(after.meter.statements.length, after.meter.statements.join('\n')).toBe(before.meter.statements.length);
    expect(after.check.statements.length, after.check.statements.join('\n')).toBe(before.check.statements.length);
  });

  it('names the items of unknown amount from the running totals: as many statements for 11 such items as for one', async () => {
    const s = await scenario(h);
    const meterUrl = `/locations/${s.cabinetId}/control-area/meter`;
    const jug = await h.call(h.a.admin.token, {
      method: 'PATCH',
      url: `/inventory-items/${s.acetone.itemId}`,
      payload: { unit_size: 'one big jug' },
    });
    expect(jug.statusCode, jug.body).toBe(200);
    const before = await run('GET', meterUrl);
    const at = { userId: h.a.admin.id, now: new Date().toISOString(), labId: s.labId };
    for (let i = 0; i < 10; i++) {
      const item = await createItem(
        h.deps,
        h.a.admin.actor,
        { labId: s.labId, name: `Jugged solvent ${i}`, typeId: h.a.migratedLab.typeId, unitSize: 'one big jug' },
        Array.from({ length: 4 }, () => ({ quantity: '1', locationId: s.cabinetId })),
      );
      await setHazardsIn(h.deps.db, { kind: 'item', id: item.id }, { ...at, codes: ['H225', 'H319', 'H336'] });
    }
    const after = await run('GET', meterUrl);
    expect(line(after.body, 'flammable-liquid-ib-ic')).toMatchObject({ unknown_containers: 41, unknown_items_count: 11 });
    expect(after.statements.length, after.statements.join('\n')).toBe(before.statements.length);
    expect(
      after.statements.some((q) => /inventory_item_instances/.test(q)),
      after.statements.join('\n'),
    ).toBe(false);
  });

  it("reads only the running totals' versions when the area has not changed since the last meter or check", async () => {
    const s = await scenario(h);
    const meterUrl = `/locations/${s.cabinetId}/control-area/meter`;
    const check = { location_id: s.cabinetId, items: [{ item_id: s.acetone.itemId, quantity: '1' }] };
    const summing = (seen: string[]) => seen.filter((q) => /group by/i.test(q) && /location_holding/.test(q));
    const first = { meter: await run('GET', meterUrl), check: await run('POST', '/placement-checks', check) };
    expect(summing(first.meter.statements), first.meter.statements.join('\n')).not.toEqual([]);
    expect(summing(first.check.statements), first.check.statements.join('\n')).not.toEqual([]);
    const again = { meter: await run('GET', meterUrl), check: await run('POST', '/placement-checks', check) };
    expect(summing(again.meter.statements), again.meter.statements.join('\n')).toEqual([]);
    expect(summing(again.check.statements), again.check.statements.join('\n')).toEqual([]);
    expect(again.meter.body).toEqual(first.meter.body);
    expect(again.check.body).toEqual(first.check.body);
    const put = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/inventory-items/${s.acetone.itemId}/instances/${s.acetone.instanceId}`,
      payload: { quantity: '2.5' },
    });
    expect(put.statusCode, put.body).toBe(200);
    const changed = await run('GET', meterUrl);
    expect(summing(changed.statements), changed.statements.join('\n')).not.toEqual([]);
    expect(line(changed.body, 'flammable-liquid-ib-ic')?.amount).toBe('2.5');
  });

  it('sums quantities exactly (0.1 + 0.2 is 0.3), and an item whose own empty statements override its type counts for nothing', async () => {
    const s = await scenario(h);
    const at = { userId: h.a.admin.id, now: new Date().toISOString(), labId: s.labId };
    const decimals = await createItem(
      h.deps,
      h.a.admin.actor,
      { labId: s.labId, name: 'Ethanol absolute', typeId: h.a.migratedLab.typeId, unitSize: '1 L' },
      ['0.1', '0.2', '0.0000000001', '12345678901234567890'].map((quantity) => ({ quantity, locationId: s.cabinetId })),
    );
    await setHazardsIn(h.deps.db, { kind: 'item', id: decimals.id }, { ...at, codes: ['H225'] });
    // The lab's type says flammable; this item of the type has its own set, empty: no hazards.
    await setHazardsIn(h.deps.db, { kind: 'type', id: h.a.migratedLab.typeId }, { ...at, codes: ['H225'] });
    const water = await createItem(
      h.deps,
      h.a.admin.actor,
      { labId: s.labId, name: 'Water', typeId: h.a.migratedLab.typeId, unitSize: '1 L' },
      [{ quantity: '100', locationId: s.cabinetId }],
    );
    await setHazardsIn(h.deps.db, { kind: 'item', id: water.id }, { ...at, codes: [] });
    try {
      const { body } = await run('GET', `/locations/${s.cabinetId}/control-area/meter`);
      // 4 (acetone) + 0.1 + 0.2 + 0.0000000001 + 12345678901234567890, rounded to 3 places as the meter shows it.
      expect(line(body, 'flammable-liquid-ib-ic')?.amount).toBe('12345678901234567894.3');
    } finally {
      await h.deps.db.deleteFrom('hazard_sets').where('type_id', '=', h.a.migratedLab.typeId).execute();
    }
  });
});

describe.skipIf(!isSqlite)('SQLite plans', () => {
  it("reads the area's running totals by location, not its containers", async () => {
    const s = await scenario(h);
    const { statements: seen } = await run('GET', `/locations/${s.cabinetId}/control-area/meter`);
    expect(
      seen.some((q) => /inventory_item_instances/.test(q)),
      seen.join('\n'),
    ).toBe(false);
    const held = seen.find((q) => /from "location_holdings" where "location_id" in/.test(q));
    expect(held, seen.join('\n')).toBeDefined();
    const { rows } = await sql.raw<{ detail: string }>(`explain query plan ${held!.replace(/\?/g, () => "'x'")}`).execute(h.deps.db);
    expect(rows.map((r) => r.detail).join(' / ')).toMatch(/SEARCH location_holdings USING INDEX \S+ \(location_id=\?\)/);
  });
});
