import { describe, expect, it } from 'vitest';
import { classify } from './rules.js';
import { conflictsAmong, conflictsWith, groupsOf, incompatibility, segregationSentence } from './segregation-rules.js';

// Hand-worked examples of the segregation table (src/hazards/segregation-data.ts, docs/safety.md). The H-codes
// are those of the suppliers' safety data sheets as src/hazards/rules.test.ts cites them.

const classes = (codes: string[]) => classify(codes).classes.map((c) => ({ id: c.id, category: c.category }));
const box = (name: string, codes: string[], attrs: { corrosive: 'acid' | 'base' | null; aqueous: boolean } | null = null) => ({
  instanceId: name,
  itemId: name,
  itemName: name,
  groups: groupsOf(classes(codes), attrs),
});

describe('storage groups', () => {
  it('from the classes and the storage attributes', () => {
    expect(groupsOf(classes(['H225', 'H319']), null)).toEqual(['flammable']);
    expect(groupsOf(classes(['H271', 'H302', 'H318']), null)).toEqual(['oxidizer']);
    expect(groupsOf(classes(['H260', 'H314']), null)).toEqual(['water-reactive']);
    // Sulfuric acid (H290 H314): corrosive, but acid is a storage attribute, not a GHS class.
    expect(groupsOf(classes(['H290', 'H314']), null)).toEqual([]);
    expect(groupsOf(classes(['H290', 'H314']), { corrosive: 'acid', aqueous: true })).toEqual(['acid', 'aqueous']);
    // Acute toxicity 3 is not "highly toxic"; 2 is.
    expect(groupsOf(classes(['H301']), null)).toEqual([]);
    expect(groupsOf(classes(['H300']), null)).toEqual(['toxic']);
  });

  it('the table is symmetric and knows compatible pairs', () => {
    expect(incompatibility('acid', 'base')).toBe(incompatibility('base', 'acid'));
    expect(incompatibility('flammable', 'flammable')).toBeUndefined();
    expect(incompatibility('oxidizer', 'aqueous')).toBeUndefined();
  });
});

describe('conflicts at a location', () => {
  const acetone = box('Acetone', ['H225', 'H319', 'H336']);
  const peroxide = box('Hydrogen peroxide 30 %', ['H271', 'H302', 'H318']);
  const sulfuric = box('Sulfuric acid', ['H290', 'H314'], { corrosive: 'acid', aqueous: true });
  const hydroxide = box('Sodium hydroxide', ['H290', 'H314'], { corrosive: 'base', aqueous: false });
  const sodium = box('Sodium', ['H260', 'H314']);

  it('an oxidizer beside a solvent, in words', () => {
    const [f, ...rest] = conflictsWith(peroxide, [acetone]);
    expect(rest).toEqual([]);
    expect(segregationSentence('Hydrogen peroxide 30 %', f!)).toBe(
      'Hydrogen peroxide 30 % (oxidizers) beside Acetone (flammables): an oxidizer feeds a fire of flammables',
    );
  });

  it('sodium beside aqueous sulfuric acid conflicts twice (acid and aqueous), beside sodium hydroxide once', () => {
    expect(
      conflictsWith(sodium, [sulfuric])
        .map((f) => f.other_group)
        .sort(),
    ).toEqual(['acid', 'aqueous']);
    expect(conflictsWith(sodium, [hydroxide]).map((f) => f.other_group)).toEqual(['base']);
  });

  it('two containers of one item never conflict; the report lists each pair once', () => {
    expect(conflictsWith(peroxide, [{ ...peroxide, instanceId: 'other bottle' }])).toEqual([]);
    const report = conflictsAmong([acetone, peroxide, sulfuric, hydroxide]);
    const pairs = report.map((r) => `${r.a.item_name}|${r.b.item_name}`);
    expect(pairs).toEqual([
      'Acetone|Hydrogen peroxide 30 %',
      'Acetone|Sulfuric acid',
      'Acetone|Sodium hydroxide',
      'Hydrogen peroxide 30 %|Sulfuric acid',
      'Hydrogen peroxide 30 %|Sodium hydroxide',
      'Sulfuric acid|Sodium hydroxide',
    ]);
  });
});
