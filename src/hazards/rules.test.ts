import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors.js';
import { HAZARD_CLASSES, PICTOGRAMS } from './ghs-classes.js';
import { STATEMENTS } from './ghs-data.js';
import { classify, codesOfClass, findStatement, normalizeCodes } from './rules.js';

// Hand-worked examples (docs/hazards.md, "Examples"). The codes are those of section 2 of the suppliers' safety data
// sheets for these products as the task named them (issue 26); sodium's and sulfuric acid's H314 and sodium's H260
// are also the EU harmonised classification (CLP Annex VI, Table 3). The expected pictograms and signal words were
// worked out by hand from GHS Rev. 10 (each statement's label elements, then 1.4.10.5.3.1 and 1.4.10.5.2).

const short = (codes: string[]) => {
  const c = classify(codes);
  return { classes: c.classes.map((k) => `${k.id}:${k.category}`), pictograms: c.pictograms, signalWord: c.signalWord };
};

describe('classify: hand-worked examples', () => {
  it('ethanol (H225, H319): flame and exclamation mark, Danger from the flammable liquid', () => {
    expect(short(['H225', 'H319'])).toEqual({
      classes: ['flammable-liquid:2', 'eye-irritation:2'],
      pictograms: ['GHS02', 'GHS07'],
      signalWord: 'Danger',
    });
  });
  it('sulfuric acid (H290, H314): corrosion once, Danger beats the Warning of H290', () => {
    expect(short(['H290', 'H314'])).toEqual({
      classes: ['corrosive-to-metals:1', 'skin-corrosion:1'],
      pictograms: ['GHS05'],
      signalWord: 'Danger',
    });
  });
  it('sodium (H260, H314): water-reactive 1 and corrosive', () => {
    expect(short(['H260', 'H314'])).toEqual({
      classes: ['water-reactive:1', 'skin-corrosion:1'],
      pictograms: ['GHS02', 'GHS05'],
      signalWord: 'Danger',
    });
  });
  it('hydrogen peroxide 30 % (H302, H318, H412): the exclamation mark stays for acute toxicity beside corrosion', () => {
    expect(short(['H302', 'H318', 'H412'])).toEqual({
      classes: ['acute-toxicity-oral:4', 'serious-eye-damage:1', 'aquatic-chronic:3'],
      pictograms: ['GHS05', 'GHS07'],
      signalWord: 'Danger',
    });
  });
  it('methanol (H225, H301+H311+H331, H370): skull, flame, health hazard', () => {
    const c = classify(['H225', 'H301+H311+H331', 'H370']);
    expect(c.pictograms).toEqual(['GHS02', 'GHS06', 'GHS08']);
    expect(c.classes.map((k) => k.id)).toEqual([
      'flammable-liquid',
      'acute-toxicity-oral',
      'acute-toxicity-dermal',
      'acute-toxicity-inhalation',
      'stot-single-exposure',
    ]);
    expect(c.signalWord).toBe('Danger');
  });
  it('nitric acid 65 % (H272, H290, H314): an oxidizer of category 2 or 3, reported as 2 with both kept', () => {
    const c = classify(['H272', 'H290', 'H314']);
    expect(c.classes[0]).toEqual({ id: 'oxidizing-liquid', category: '2', categories: ['2', '3'] });
    expect(c.pictograms).toEqual(['GHS03', 'GHS05']);
  });
  it('an aquatic hazard of category 3 alone has no pictogram and no signal word', () => {
    expect(short(['H412'])).toEqual({ classes: ['aquatic-chronic:3'], pictograms: [], signalWord: null });
    expect(short(['H410'])).toEqual({ classes: ['aquatic-chronic:1'], pictograms: ['GHS09'], signalWord: 'Warning' });
  });
  it('nothing at all is no class, no pictogram, no signal word', () => {
    expect(classify([])).toEqual({ codes: [], classes: [], pictograms: [], signalWord: null });
  });
});

describe('classify: precedence (GHS 1.4.10.5.3.1)', () => {
  it('the skull suppresses the exclamation mark whatever it was for', () => {
    expect(classify(['H302', 'H330', 'H315']).pictograms).toEqual(['GHS06']);
  });
  it('corrosion suppresses the exclamation mark for skin and eye irritation, not for anything else', () => {
    expect(classify(['H314', 'H315', 'H319']).pictograms).toEqual(['GHS05']);
    expect(classify(['H314', 'H335']).pictograms).toEqual(['GHS05', 'GHS07']);
    expect(classify(['H314', 'H317']).pictograms).toEqual(['GHS05', 'GHS07']);
  });
  it('the health hazard for respiratory sensitization suppresses it for skin sensitization and irritation', () => {
    expect(classify(['H334', 'H317', 'H319']).pictograms).toEqual(['GHS08']);
    expect(classify(['H334', 'H302']).pictograms).toEqual(['GHS07', 'GHS08']);
    // The health hazard for another reason (a carcinogen) does not.
    expect(classify(['H350', 'H317']).pictograms).toEqual(['GHS07', 'GHS08']);
  });
  it('Danger replaces Warning', () => {
    expect(classify(['H226', 'H315']).signalWord).toBe('Warning');
    expect(classify(['H226', 'H315', 'H318']).signalWord).toBe('Danger');
  });
});

describe('codes', () => {
  it('are normalized, deduplicated and ordered as in the table', () => {
    expect(normalizeCodes(['h319', ' H225 ', 'H225', 'h300 + h310'])).toEqual(['H225', 'H319', 'H300+H310']);
    expect(findStatement('H360Fd')!.code).toBe('H360Fd');
    expect(findStatement('h350I')!.code).toBe('H350i');
    // Ambiguous without CLP's case: H360FD and H360Fd differ.
    expect(findStatement('h360fd')).toBeUndefined();
  });
  it('unknown ones are a 422 naming each, with the reason', () => {
    const err = (() => {
      try {
        normalizeCodes(['H225', 'H999', 'EUH066', 'P210', 'H225+H319', '']);
      } catch (e) {
        return e as AppError;
      }
    })()!;
    expect(err).toBeInstanceOf(AppError);
    expect(err.status).toBe(422);
    expect(err.details.errors!.map((e) => e.field)).toEqual([
      'hazard_statements[1]',
      'hazard_statements[2]',
      'hazard_statements[3]',
      'hazard_statements[4]',
      'hazard_statements[5]',
    ]);
    expect(err.message).toContain('"H999" is not a GHS hazard statement');
    expect(err.message).toContain('EU supplemental');
    expect(err.message).toContain('precautionary');
    expect(err.message).toContain('enter H225 and H319 separately');
    expect(() => classify(['H2250'])).toThrow(AppError);
  });
  it('a combined statement classifies as its parts', () => {
    expect(classify(['H300+H310+H330']).classes).toEqual(classify(['H300', 'H310', 'H330']).classes);
    expect(classify(['H300+H310+H330']).codes).toEqual(['H300+H310+H330']);
  });
  it('codesOfClass finds single and combined statements of a class', () => {
    expect(codesOfClass('flammable-liquid')).toEqual(['H224', 'H225', 'H226', 'H227']);
    expect(codesOfClass('acute-toxicity-oral')).toContain('H300+H310+H330');
    expect(codesOfClass('organic-peroxide')).toEqual(['H240', 'H241', 'H242']);
  });
});

describe('the table', () => {
  it('names only known classes and categories, pictograms and signal words', () => {
    const classes = new Map(HAZARD_CLASSES.map((k) => [k.id, k]));
    for (const r of STATEMENTS) {
      expect(r.code).toMatch(/^H[234]\d\d(\w+)?(\+H\d{3})*$/);
      expect(r.text.length).toBeGreaterThan(5);
      for (const k of r.classes) {
        expect(classes.has(k.id), `${r.code}: ${k.id}`).toBe(true);
        for (const cat of k.categories) expect(classes.get(k.id)!.categories, `${r.code}: ${k.id} ${cat}`).toContain(cat);
      }
      for (const p of r.pictograms) expect(Object.keys(PICTOGRAMS)).toContain(p);
    }
    expect(new Set(STATEMENTS.map((r) => r.code)).size).toBe(STATEMENTS.length);
  });
  it('gives every class at least one statement, and physical codes physical classes', () => {
    for (const k of HAZARD_CLASSES) expect(codesOfClass(k.id).length, k.id).toBeGreaterThan(0);
    const kind = new Map(HAZARD_CLASSES.map((k) => [k.id, k.kind]));
    for (const r of STATEMENTS.filter((x) => x.parts.length === 1)) {
      const expected = { '2': 'physical', '3': 'health', '4': 'environmental' }[r.code[1]!];
      for (const k of r.classes) expect(kind.get(k.id), r.code).toBe(expected);
    }
  });
});
