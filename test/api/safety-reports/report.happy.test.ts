// GET /labs/{id}/hazard-report (docs/hazard-reports.md): per location, building and control area; each hazard class
// with its containers and amounts per unit family, the unknown listed; as JSON, CSV (parsed back) and PDF (its text
// read back with MuPDF).
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { pdfText, type ReportWorld, reportUrl, reportWorld } from './_report.js';

let w: ReportWorld;
const h = useHarness({}, async (h) => {
  w = await reportWorld(h);
});
const lab = () => h.a.migratedLab.id;
const get = (query = '', headers: Record<string, string> = {}) =>
  h.call(h.a.member.token, { method: 'GET', url: reportUrl(lab(), query), headers });

type Group = { location: { id: string | null; path: string[] }; control_area: boolean; limits: any[]; classes: any[] };
const classOf = (g: Group, id: string) => g.classes.find((c) => c.class_id === id);

describe('hazard report (happy)', () => {
  it('per location: what is stored right at each, classes in table order, amounts exact, the unknown listed', async () => {
    const res = await get();
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.lab).toEqual({ id: lab(), name: expect.any(String) });
    expect(body.by).toBe('location');
    expect(body.scope).toBeNull();
    const groups: Group[] = body.groups;
    expect(groups.map((g) => g.location.path.join(' / '))).toEqual([
      'Building B / Acid store',
      'Room 101',
      'Room 101 / Freezer A / Shelf 2',
    ]);
    const [store, room, shelf] = groups as [Group, Group, Group];
    expect(store.classes.map((c) => c.class_id)).toEqual(['corrosive-to-metals', 'skin-corrosion']);
    expect(classOf(store, 'skin-corrosion')).toMatchObject({
      name: 'Skin corrosion',
      category: '1',
      containers: 1,
      total: { mass: null, volume: { family: 'volume', amount: '5', unit: 'L', text: '5 L' }, count: null },
      unknown: 0,
    });
    const flammableRoom = classOf(room, 'flammable-liquid');
    expect(flammableRoom).toMatchObject({ category: '2', containers: 2, total: { volume: { amount: '1', text: '1 L' } }, unknown: 1 });
    expect(flammableRoom.items.map((i: any) => [i.name, i.amount.text])).toEqual([
      ['Acetone', '1 L'],
      ['Solvent blend', null],
    ]);
    expect(flammableRoom.items[1]).toMatchObject({
      item_id: w.mystery,
      quantity: '3',
      unit_size: '5 mg/mL',
      amount: { family: 'unknown', amount: null, unit: null, text: null },
      hazard_statements: ['H225'],
    });
    expect(classOf(shelf, 'flammable-liquid')).toMatchObject({ containers: 2, total: { volume: { amount: '5' } } });
    // Location groups carry no limits, even where the location is inside a control area.
    expect(groups.every((g) => g.limits.length === 0 && !g.control_area)).toBe(true);
    // Tris base has no hazards: it is nowhere in the report.
    expect(res.body).not.toContain('Tris base');
  });

  it('per building: each top-level location with everything below it', async () => {
    const groups: Group[] = (await get('by=building')).json().groups;
    expect(groups.map((g) => [g.location.id, g.location.path])).toEqual([
      [w.buildingB, ['Building B']],
      [w.room, ['Room 101']],
    ]);
    const flammable = classOf(groups[1]!, 'flammable-liquid');
    // 2 × 2.5 L of ethanol on the shelf and 1 L of acetone in the room; the blend's size cannot be read.
    expect(flammable).toMatchObject({ containers: 4, total: { volume: { amount: '6', unit: 'L', text: '6 L' } }, unknown: 1 });
  });

  it('per control area: everything below it, with its limits and what it holds against them', async () => {
    const groups: Group[] = (await get('by=control-area')).json().groups;
    expect(groups).toHaveLength(1);
    const [room] = groups as [Group];
    expect(room.location).toEqual({ id: w.room, path: ['Room 101'] });
    expect(room.control_area).toBe(true);
    expect(room.limits).toContainEqual({
      label: 'Flammable liquids IB and IC',
      state: 'liquid',
      unit: 'L',
      stored: '6',
      limit: '10',
      over: false,
      text: '6 L of 10 L',
      unknown: 1,
    });
    // The acid store is in no control area: not in this report.
    expect(JSON.stringify(groups)).not.toContain('Sulfuric');
  });

  it("a location's subtree only", async () => {
    const body = (await get(`by=building&location_id=${w.store}`)).json();
    expect(body.scope).toEqual({ id: w.store, path: ['Building B', 'Acid store'] });
    expect(body.groups.map((g: Group) => g.location.path)).toEqual([['Building B']]);
  });

  it('as CSV (format=csv or Accept: text/csv), parsed back to the same figures', async () => {
    const json = (await get('by=building')).json();
    for (const res of [await get('by=building&format=csv'), await get('by=building', { accept: 'text/csv' })]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="hazard-report-.*-building\.csv"$/);
      const rows: Record<string, string>[] = parse(res.body, { columns: true });
      const containers = rows.filter((r) => r.row === 'container');
      const expected = json.groups.flatMap((g: Group) =>
        g.classes.flatMap((c) => c.items.map((i: any) => [c.name, i.name, i.amount.amount ?? ''])),
      );
      expect(containers.map((r) => [r.hazard_class, r.item, r.amount])).toEqual(expected);
      expect(rows).toContainEqual(
        expect.objectContaining({
          row: 'total',
          group: 'Room 101',
          hazard_class: 'Flammable liquid',
          amount: '6',
          unit: 'L',
          amount_text: '6 L',
        }),
      );
      expect(rows).toContainEqual(
        expect.objectContaining({ row: 'total', hazard_class: 'Flammable liquid', amount_text: '1 of unknown size' }),
      );
      expect(containers.find((r) => r.item === 'Solvent blend')).toMatchObject({
        unit_size: '5 mg/mL',
        amount: '',
        amount_text: 'unknown',
      });
    }
    const areas: Record<string, string>[] = parse((await get('by=control-area&format=csv')).body, { columns: true });
    expect(areas).toContainEqual(
      expect.objectContaining({
        row: 'limit',
        group: 'Room 101',
        hazard_class: 'Flammable liquids IB and IC',
        limit: '10',
        over_limit: 'no',
      }),
    );
  });

  it('as PDF (format=pdf or Accept: application/pdf), whose text says it all', async () => {
    for (const res of [await get('by=control-area&format=pdf'), await get('by=control-area', { accept: 'application/pdf' })]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toMatch(/\.pdf"$/);
      const text = pdfText(res.rawPayload);
      expect(text).toContain('Hazard inventory of');
      expect(text).toContain('Room 101 (control area)');
      expect(text).toContain('Limit: Flammable liquids IB and IC, liquid: 6 L of 10 L; 1 of unknown amount not counted');
      expect(text).toContain('Flammable liquid, category 2: 6 L and 1 container of unknown size in 4 containers');
      expect(text).toContain('Solvent blend · 3 × 5 mg/mL = unknown amount');
    }
  });
});
