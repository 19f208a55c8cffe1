// GET /hazards/statements and GET /hazards/classes: the shipped rules table (docs/hazards.md), for pickers and integrators.
import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';

const h = useHarness();

describe('hazard statements and classes (happy)', () => {
  it('lists every statement with its classes, pictograms and signal word', async () => {
    const res = await h.call(h.a.member.token, { method: 'GET', url: '/hazards/statements' });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json();
    expect(rows.length).toBeGreaterThan(100);
    expect(rows.find((r: any) => r.code === 'H225')).toEqual({
      code: 'H225',
      text: 'Highly flammable liquid and vapour',
      classes: [{ id: 'flammable-liquid', categories: ['2'] }],
      pictograms: ['GHS02'],
      signal_word: 'Danger',
      origin: 'ghs',
    });
    expect(rows.find((r: any) => r.code === 'H360Fd').origin).toBe('clp');
    expect(rows.find((r: any) => r.code === 'H300+H310+H330').pictograms).toEqual(['GHS06']);
  });

  it('lists the classes with their kinds and categories', async () => {
    const res = await h.call(h.a.outsider.token, { method: 'GET', url: '/hazards/classes' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toContainEqual({
      id: 'flammable-liquid',
      name: 'Flammable liquid',
      kind: 'physical',
      categories: ['1', '2', '3', '4'],
    });
    expect(res.json()).toContainEqual({
      id: 'water-reactive',
      name: 'Emits flammable gas in contact with water',
      kind: 'physical',
      categories: ['1', '2', '3'],
    });
  });
});
