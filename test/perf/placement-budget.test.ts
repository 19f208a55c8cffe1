import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Scenario, scenario } from '../api/placement/_placement.js';
import { type CountedApp, startCountedApp } from '../helpers/db-counter.js';
import { type Harness, startHarness } from '../helpers/harness.js';

// Statement budgets of the control-area meter and the placement check (docs/performance.md, "Fewer statements
// for a check"): asked for at every confirm of a move and on every location page, each statement one round trip
// on PostgreSQL. Counted on a second app over a counted handle (test/helpers/db-counter.ts), warm (the second of
// two identical requests: the area's sums are remembered). Raising a budget is a decision, not a fix.

let h: Harness;
let counted: CountedApp;
let s: Scenario;
const statements: string[] = [];
beforeAll(async () => {
  h = await startHarness();
  counted = await startCountedApp(h, (sql) => statements.push(sql));
  s = await scenario(h);
});
afterAll(async () => {
  await counted?.close();
  await h?.close();
});

/** The statements of the second of two identical requests. */
async function statementsOf(opts: InjectOptions): Promise<string[]> {
  const send = () => counted.app.inject({ ...opts, headers: { authorization: `Bearer ${h.a.admin.token}` } });
  expect((await send()).statusCode).toBe(200);
  statements.length = 0;
  const res = await send();
  expect(res.statusCode, res.body).toBe(200);
  return [...statements];
}

describe('control-area meter and placement check: statements per request', () => {
  it('the meter: the visible location, the area and its subtree with the holdings stamps (3)', async () => {
    const st = await statementsOf({ method: 'GET', url: `/locations/${s.cabinetId}/control-area/meter` });
    expect(st).toHaveLength(3);
  });

  it('a check with nothing to name: 8 statements, the visibility of the location and its lab in one', async () => {
    const st = await statementsOf({
      method: 'POST',
      url: '/placement-checks',
      payload: { location_id: s.cabinetId, instances: [{ instance_id: s.acetone.instanceId, quantity: '4' }] },
    });
    expect(st).toHaveLength(8);
    expect(st.filter((q) => q.startsWith('select "labs".'))).toEqual([]);
  });

  it('a check that names a conflicting container: the two reads that name it come on top (10)', async () => {
    const st = await statementsOf({
      method: 'POST',
      url: '/placement-checks',
      payload: { location_id: s.cabinetId, instances: [{ instance_id: s.peroxide.instanceId }] },
    });
    expect(st).toHaveLength(10);
  });
});
