import { describe, expect, it } from 'vitest';
import { type Contribution, checkLimits, defaultLimits, effectiveLimits, ifcOf, limitSentence, meter } from './control-area-rules.js';
import { classify } from './rules.js';

// Hand-worked examples (docs/safety.md). Conversions: 1 gal = 3.785411784 L, 1 lb = 0.45359237 kg,
// 1 cu ft = 0.028316846592 m³; kept to 3 decimals.

const classesOf = (codes: string[]) => classify(codes).classes.map((c) => ({ id: c.id, category: c.category }));
const c = (name: string, codes: string[], amount: Contribution['amount']): Contribution => ({
  instanceId: null,
  itemId: name,
  itemName: name,
  classes: classesOf(codes),
  amount,
});

describe('IFC defaults', () => {
  it('converts the code figures: IA 30 gal = 113.562 L, IB/IC 120 gal = 454.249 L, oxidizer 4 solid 1 lb = 0.454 kg', () => {
    const d = defaultLimits({ sprinklered: false, cabinets: false });
    const at = (category: string, state: string) => d.find((l) => l.category === category && l.state === state)?.limit;
    expect(at('flammable-liquid-ia', 'liquid')).toBe('113.562');
    expect(at('flammable-liquid-ib-ic', 'liquid')).toBe('454.249');
    expect(at('oxidizer-4', 'solid')).toBe('0.454');
    // Stated in pounds for a liquid (the code's parentheses): 10 lb at 1 kg per L = 4.536 L.
    expect(at('highly-toxic', 'liquid')).toBe('4.536');
    expect(at('flammable-gas', 'gas')).toBe('28.317');
    expect(at('flammable-liquid-ia', 'gas')).toBeUndefined();
  });

  it('sprinklers and cabinets each add 100 %, cumulative', () => {
    const at = (o: { sprinklered: boolean; cabinets: boolean }) =>
      defaultLimits(o).find((l) => l.category === 'flammable-liquid-ia' && l.state === 'liquid')!.limit;
    expect(at({ sprinklered: true, cabinets: false })).toBe('227.125');
    expect(at({ sprinklered: false, cabinets: true })).toBe('227.125');
    expect(at({ sprinklered: true, cabinets: true })).toBe('454.249');
  });
});

describe('GHS -> IFC mapping', () => {
  it('flammable liquid 1 is IA exactly, 3 is IB/IC approximately, 4 is IIIA; acute toxicity 2 is highly toxic', () => {
    expect(ifcOf({ id: 'flammable-liquid', category: '1' })).toEqual({
      ifc: ['flammable-liquid-ia', 'flammable-liquid-combined'],
      state: 'liquid',
      approximate: false,
    });
    expect(ifcOf({ id: 'flammable-liquid', category: '3' }).approximate).toBe(true);
    expect(ifcOf({ id: 'flammable-liquid', category: '4' }).ifc).toEqual(['combustible-liquid-iiia']);
    expect(ifcOf({ id: 'acute-toxicity-oral', category: '2' }).ifc).toEqual(['highly-toxic']);
    expect(ifcOf({ id: 'eye-irritation', category: '2' }).ifc).toEqual([]);
  });
});

describe('meter and check', () => {
  const limits = effectiveLimits({ sprinklered: false, cabinets: false }, [
    { category: 'flammable-liquid-ib-ic', state: 'liquid', limit: '120' },
  ]);

  it('acetone (H225: flammable liquid 2) counts in IB/IC and the combined limit; ethanol too; a mass-sized liquid is unknown', () => {
    const stored = [
      c('acetone', ['H225', 'H319', 'H336'], { family: 'volume', value: '100' }),
      c('ethanol', ['H225', 'H319'], { family: 'volume', value: '18' }),
      c('resin', ['H225'], { family: 'mass', value: '2' }),
    ];
    const lines = meter(limits, stored);
    const ibic = lines.find((l) => l.category === 'flammable-liquid-ib-ic')!;
    expect(ibic).toMatchObject({ amount: '118', limit: '120', over: false, unit: 'L' });
    expect(ibic.unknown_items.map((u) => u.item_name)).toEqual(['resin']);
    expect(lines.find((l) => l.category === 'flammable-liquid-combined')).toMatchObject({ amount: '118', limit: '454.249' });
  });

  it("118 L of 120 L, adding 4 L: 2 L over, in the issue's words", () => {
    const stored = [c('acetone', ['H225'], { family: 'volume', value: '118' })];
    const [f, ...rest] = checkLimits(limits, stored, [c('ethanol', ['H225'], { family: 'volume', value: '4' })]);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ current: '118', adding: '4', limit: '120', over_by: '2' });
    expect(limitSentence(f!, 'Solvent cabinet')).toBe(
      'Flammable liquids IB and IC in Solvent cabinet: 118 L of 120 L; this adds 4 L, 2 L over the limit',
    );
    expect(checkLimits(limits, stored, [c('ethanol', ['H225'], { family: 'volume', value: '2' })])).toEqual([]);
  });

  it('a solid oxidizer (H272, category 2 at most severe) counts in kg against oxidizers class 2: 250 lb = 113.398 kg', () => {
    const [f] = checkLimits(
      limits,
      [c('nitrate', ['H272'], { family: 'mass', value: '113' })],
      [c('more nitrate', ['H272'], { family: 'mass', value: '1' })],
    );
    // H272 gives oxidizing-liquid and -solid; a mass is a solid, so only the solid limit counts it.
    expect(f).toMatchObject({ category: 'oxidizer-2', state: 'solid', current: '113', adding: '1', limit: '113.398', over_by: '0.602' });
  });

  it('H271 in a volume is a liquid oxidizer only: the solid line neither counts nor lists it; a count-sized one is listed in both', () => {
    const lines = meter(limits, [c('peroxide', ['H271'], { family: 'volume', value: '0.5' })]);
    expect(lines.filter((l) => l.category === 'oxidizer-3').map((l) => [l.state, l.amount, l.unknown_containers])).toEqual([
      ['liquid', '0.5', 0],
    ]);
    const counted = meter(limits, [c('tablets', ['H271'], { family: 'count', value: '10' })]);
    expect(
      counted
        .filter((l) => l.category === 'oxidizer-3')
        .map((l) => [l.state, l.unknown_containers])
        .sort(),
    ).toEqual([
      ['liquid', 1],
      ['solid', 1],
    ]);
  });

  it('groups of containers count their containers; each line names its items by name, the first few of all', () => {
    const group = (codes: string[], containers: number, items: [string, number][], amount: Contribution['amount']): Contribution => ({
      ...c('', codes, amount),
      itemId: null,
      containers,
      items: items.map(([n, k]) => ({ item_id: n, item_name: n, containers: k })),
    });
    const stored = [
      group(
        ['H225'],
        5,
        [
          ['zinc resin', 2],
          ['amber resin', 3],
        ],
        null,
      ),
      group(['H225', 'H319'], 4, [['zinc resin', 4]], { family: 'count', value: '4' }),
      group(['H225'], 3, [['acetone', 3]], { family: 'volume', value: '6' }),
      c('bead', ['H225'], { family: 'mass', value: '1' }),
    ];
    const all = meter(limits, stored).find((l) => l.category === 'flammable-liquid-ib-ic')!;
    expect(all).toMatchObject({ amount: '6', unknown_containers: 10, unknown_items_count: 3 });
    expect(all.unknown_items).toEqual([
      { item_id: 'amber resin', item_name: 'amber resin', containers: 3 },
      { item_id: 'bead', item_name: 'bead', containers: 1 },
      { item_id: 'zinc resin', item_name: 'zinc resin', containers: 6 },
    ]);
    const two = meter(limits, stored, 2).find((l) => l.category === 'flammable-liquid-ib-ic')!;
    expect(two).toMatchObject({ unknown_containers: 10, unknown_items_count: 3 });
    expect(two.unknown_items.map((u) => u.item_name)).toEqual(['amber resin', 'bead']);
    // Counted once more elsewhere, the same group's items are not shared between the lines' tallies.
    expect(meter(limits, stored).find((l) => l.category === 'flammable-liquid-combined')!.unknown_items[2]?.containers).toBe(6);
  });

  it('a container with oral and dermal toxicity 1 counts once against highly toxic', () => {
    const lines = meter(limits, [c('toxin', ['H300', 'H310'], { family: 'mass', value: '1' })]);
    expect(lines.filter((l) => l.category === 'highly-toxic')).toEqual([expect.objectContaining({ state: 'solid', amount: '1' })]);
  });
});
