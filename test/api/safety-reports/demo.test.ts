// The demo's chemistry lab (issue 26, "Done when"): hazards on its reagents, a flammable-liquids cabinet as a control
// area near its limit, an oxidizer beside a solvent (a segregation conflict), a controlled substance with a ledger,
// and the safety office's report listing it all. Seeded into a test database through src/demo/seed.ts.
import { describe, expect, it } from 'vitest';
import { type DemoResult, seedDemo } from '../../../src/demo/seed.js';
import { useHarness } from '../../helpers/use-harness.js';
import { reportUrl } from './_report.js';

let demo: DemoResult;
const h = useHarness({}, async (h) => {
  demo = await seedDemo(h.deps);
});
const get = (url: string) => h.call(demo.token, { method: 'GET', url });

describe('the demo chemistry lab', () => {
  it('its cabinet is a control area near its limit, and the report says so', async () => {
    const res = await get(reportUrl(demo.chemistry_lab_id, 'by=control-area'));
    expect(res.statusCode, res.body).toBe(200);
    const [cabinet] = res.json().groups;
    expect(cabinet.location).toEqual({ id: demo.flammables_cabinet_id, path: ['Chemistry Building', 'Room 3.12', 'Flammables cabinet'] });
    expect(cabinet.limits).toContainEqual(
      expect.objectContaining({
        label: 'Flammables liquids IB and IC'.replace('Flammables', 'Flammable'),
        stored: '17.5',
        limit: '20',
        over: false,
      }),
    );
    expect(cabinet.classes.find((c: { class_id: string }) => c.class_id === 'flammable-liquid').total.volume.text).toBe('17.5 L');
  });

  it('the report per location lists every hazardous reagent, the unreadable size as unknown', async () => {
    const body = (await get(reportUrl(demo.chemistry_lab_id))).json();
    const text = JSON.stringify(body);
    for (const name of [
      'Ethanol absolute',
      'Acetone',
      'Potassium permanganate',
      'Hydrogen peroxide 30 %',
      'Sulfuric acid 95–98 %',
      'Sodium hydroxide pellets',
      'Sodium metal',
    ])
      expect(text).toContain(name);
    const hood = body.groups.find((g: { location: { path: string[] } }) => g.location.path.at(-1) === 'Fume hood 2');
    const water = hood.classes.find((c: { class_id: string }) => c.class_id === 'water-reactive');
    expect(water.total.mass.text).toBe('25 g');
    expect(JSON.stringify(hood)).toContain('"unit_size":"assorted vials"');
  });

  it('the oxidizer beside the solvent is a segregation conflict', async () => {
    const shelf = (await get(reportUrl(demo.chemistry_lab_id)))
      .json()
      .groups.find((g: { location: { path: string[] } }) => g.location.path.at(-1) === 'Open shelf A');
    const res = await get(`/locations/${shelf.location.id}/segregation-conflicts`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('Potassium permanganate');
    expect(res.body).toContain('Acetone (wash bottle stock)');
  });

  it('the controlled substance has a ledger with a witnessed use and one waiting', async () => {
    const res = await get(`/controlled-items/${demo.controlled_item_id}/ledger`);
    expect(res.statusCode, res.body).toBe(200);
    const entries = res.json();
    expect(entries.length).toBeGreaterThanOrEqual(3);
    expect(entries.filter((e: { witness: unknown }) => e.witness !== null).length).toBeGreaterThanOrEqual(1);
    expect(entries.filter((e: { witness: unknown }) => e.witness === null).length).toBeGreaterThanOrEqual(1);
  });

  it('a request awaiting approval would take the cabinet over its limit: the check says by how much', async () => {
    const queue = await get(`/order-requests/awaiting-approval?lab_id=${demo.chemistry_lab_id}`);
    expect(queue.json().map((o: { id: string }) => o.id)).toEqual([demo.over_limit_request_id]);
    const res = await get(`/order-requests/${demo.over_limit_request_id}/placement-check`);
    expect(res.statusCode, res.body).toBe(200);
    const check = res.json();
    expect(check.blocked).toBe(false);
    expect(check.limits).toEqual([
      expect.objectContaining({
        control_area_id: demo.flammables_cabinet_id,
        current: '17.5',
        adding: '5',
        limit: '20',
        over_by: '2.5',
        message: 'Flammable liquids IB and IC in Flammables cabinet: 17.5 L of 20 L; this adds 5 L, 2.5 L over the limit',
      }),
    ]);
  });
});
