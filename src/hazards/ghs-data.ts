import type { Pictogram, SignalWord } from './ghs-classes.js';

// The rules table: every GHS hazard statement (H-code) with its hazard class(es) and category(ies), its pictograms
// and signal word, and its English text (docs/hazards.md). Source: UN GHS, Rev. 10 (2023), Annex 3, Section 1
// (Tables A3.1.1 physical, A3.1.2 health, A3.1.3 environmental, and the combined statements of A3.1.2/A3.1.3), with
// the label elements of the hazard communication tables of each chapter (Parts 2-4, "Label elements for ...").
// Codes marked `clp` are the EU CLP variants (Regulation (EC) No 1272/2008, Annex III) that SDSs print in place of
// GHS's H350/H360/H361 (the route or the effect spelled out in letters); they classify as their GHS code does.
// Codes marked `earlier` were retired from the explosives chapter when GHS Rev. 10 introduced H209-H211, and stay
// because SDSs written under earlier revisions and CLP still carry them.
//
// One statement can be shared by categories with different label elements (H207, H221, H228, H242, H261, H272):
// the entry carries the most severe category's, a safety tool erring towards caution. The SDS's section 2 is what
// the supplier decided; Labstock shows what the statements imply.

export interface StatementRule {
  code: string;
  text: string;
  classes: { id: string; categories: string[] }[];
  pictograms: Pictogram[];
  signalWord: SignalWord | null;
  origin: 'ghs' | 'clp' | 'earlier';
  /** The codes a combined statement (H300+H310) joins; [code] otherwise. */
  parts: string[];
}

const SIGNAL = { D: 'Danger', W: 'Warning', '-': null } as const;

function s(
  code: string,
  text: string,
  classes: string,
  pictograms: string,
  signal: keyof typeof SIGNAL,
  origin: StatementRule['origin'] = 'ghs',
) {
  return {
    code,
    text,
    classes: classes.split('|').map((part) => {
      const [id, cats] = part.split(':');
      return { id: id!, categories: cats!.split(',') };
    }),
    pictograms: pictograms ? (pictograms.split(' ') as Pictogram[]) : [],
    signalWord: SIGNAL[signal],
    origin,
    parts: [code],
  } satisfies StatementRule;
}

const SINGLE: StatementRule[] = [
  // Physical hazards (Table A3.1.1)
  s('H200', 'Unstable explosive', 'explosive:unstable', 'GHS01', 'D', 'earlier'),
  s('H201', 'Explosive; mass explosion hazard', 'explosive:1.1', 'GHS01', 'D', 'earlier'),
  s('H202', 'Explosive; severe projection hazard', 'explosive:1.2', 'GHS01', 'D', 'earlier'),
  s('H203', 'Explosive; fire, blast or projection hazard', 'explosive:1.3', 'GHS01', 'D', 'earlier'),
  s('H204', 'Fire or projection hazard', 'explosive:1.4,2B', 'GHS01', 'W'),
  s('H205', 'May mass explode in fire', 'explosive:1.5', '', 'D', 'earlier'),
  s(
    'H206',
    'Fire, blast or projection hazard; increased risk of explosion if desensitizing agent is reduced',
    'desensitized-explosive:1',
    'GHS02',
    'D',
  ),
  s(
    'H207',
    'Fire or projection hazard; increased risk of explosion if desensitizing agent is reduced',
    'desensitized-explosive:2,3',
    'GHS02',
    'D',
  ),
  s('H208', 'Fire hazard; increased risk of explosion if desensitizing agent is reduced', 'desensitized-explosive:4', 'GHS02', 'W'),
  s('H209', 'Explosive', 'explosive:1,2A', 'GHS01', 'D'),
  s('H210', 'Very sensitive', 'explosive:1', 'GHS01', 'D'),
  s('H211', 'May be sensitive', 'explosive:1', 'GHS01', 'D'),
  s('H220', 'Extremely flammable gas', 'flammable-gas:1A', 'GHS02', 'D'),
  s('H221', 'Flammable gas', 'flammable-gas:1B,2', 'GHS02', 'D'),
  s('H222', 'Extremely flammable aerosol', 'aerosol:1', 'GHS02', 'D'),
  s('H223', 'Flammable aerosol', 'aerosol:2', 'GHS02', 'W'),
  s('H224', 'Extremely flammable liquid and vapour', 'flammable-liquid:1', 'GHS02', 'D'),
  s('H225', 'Highly flammable liquid and vapour', 'flammable-liquid:2', 'GHS02', 'D'),
  s('H226', 'Flammable liquid and vapour', 'flammable-liquid:3', 'GHS02', 'W'),
  s('H227', 'Combustible liquid', 'flammable-liquid:4', '', 'W'),
  s('H228', 'Flammable solid', 'flammable-solid:1,2', 'GHS02', 'D'),
  // Also printed beside H222 and H223 on category 1 and 2 aerosols; alone it is category 3.
  s('H229', 'Pressurized container: may burst if heated', 'aerosol:3', '', 'W'),
  s('H230', 'May react explosively even in the absence of air', 'chemically-unstable-gas:A', '', 'D'),
  s(
    'H231',
    'May react explosively even in the absence of air at elevated pressure and/or temperature',
    'chemically-unstable-gas:B',
    '',
    'D',
  ),
  s('H232', 'May ignite spontaneously if exposed to air', 'pyrophoric-gas:1A', 'GHS02', 'D'),
  s('H240', 'Heating may cause an explosion', 'self-reactive:A|organic-peroxide:A', 'GHS01', 'D'),
  s('H241', 'Heating may cause a fire or explosion', 'self-reactive:B|organic-peroxide:B', 'GHS01 GHS02', 'D'),
  s('H242', 'Heating may cause a fire', 'self-reactive:C,D,E,F|organic-peroxide:C,D,E,F', 'GHS02', 'D'),
  s('H250', 'Catches fire spontaneously if exposed to air', 'pyrophoric-liquid:1|pyrophoric-solid:1', 'GHS02', 'D'),
  s('H251', 'Self-heating; may catch fire', 'self-heating:1', 'GHS02', 'D'),
  s('H252', 'Self-heating in large quantities; may catch fire', 'self-heating:2', 'GHS02', 'W'),
  s('H260', 'In contact with water releases flammable gases which may ignite spontaneously', 'water-reactive:1', 'GHS02', 'D'),
  s('H261', 'In contact with water releases flammable gas', 'water-reactive:2,3', 'GHS02', 'D'),
  s('H270', 'May cause or intensify fire; oxidizer', 'oxidizing-gas:1', 'GHS03', 'D'),
  s('H271', 'May cause fire or explosion; strong oxidizer', 'oxidizing-liquid:1|oxidizing-solid:1', 'GHS03', 'D'),
  s('H272', 'May intensify fire; oxidizer', 'oxidizing-liquid:2,3|oxidizing-solid:2,3', 'GHS03', 'D'),
  s('H280', 'Contains gas under pressure; may explode if heated', 'gas-under-pressure:compressed,liquefied,dissolved', 'GHS04', 'W'),
  s('H281', 'Contains refrigerated gas; may cause cryogenic burns or injury', 'gas-under-pressure:refrigerated-liquefied', 'GHS04', 'W'),
  s('H282', 'Extremely flammable chemical under pressure: may explode if heated', 'chemical-under-pressure:1', 'GHS02', 'D'),
  s('H283', 'Flammable chemical under pressure: may explode if heated', 'chemical-under-pressure:2', 'GHS02', 'W'),
  s('H284', 'Chemical under pressure: may explode if heated', 'chemical-under-pressure:3', '', 'W'),
  s('H290', 'May be corrosive to metals', 'corrosive-to-metals:1', 'GHS05', 'W'),
  // Health hazards (Table A3.1.2)
  s('H300', 'Fatal if swallowed', 'acute-toxicity-oral:1,2', 'GHS06', 'D'),
  s('H301', 'Toxic if swallowed', 'acute-toxicity-oral:3', 'GHS06', 'D'),
  s('H302', 'Harmful if swallowed', 'acute-toxicity-oral:4', 'GHS07', 'W'),
  s('H303', 'May be harmful if swallowed', 'acute-toxicity-oral:5', '', 'W'),
  s('H304', 'May be fatal if swallowed and enters airways', 'aspiration-hazard:1', 'GHS08', 'D'),
  s('H305', 'May be harmful if swallowed and enters airways', 'aspiration-hazard:2', 'GHS08', 'W'),
  s('H310', 'Fatal in contact with skin', 'acute-toxicity-dermal:1,2', 'GHS06', 'D'),
  s('H311', 'Toxic in contact with skin', 'acute-toxicity-dermal:3', 'GHS06', 'D'),
  s('H312', 'Harmful in contact with skin', 'acute-toxicity-dermal:4', 'GHS07', 'W'),
  s('H313', 'May be harmful in contact with skin', 'acute-toxicity-dermal:5', '', 'W'),
  s('H314', 'Causes severe skin burns and eye damage', 'skin-corrosion:1,1A,1B,1C', 'GHS05', 'D'),
  s('H315', 'Causes skin irritation', 'skin-irritation:2', 'GHS07', 'W'),
  s('H316', 'Causes mild skin irritation', 'skin-irritation:3', '', 'W'),
  s('H317', 'May cause an allergic skin reaction', 'skin-sensitizer:1,1A,1B', 'GHS07', 'W'),
  s('H318', 'Causes serious eye damage', 'serious-eye-damage:1', 'GHS05', 'D'),
  s('H319', 'Causes serious eye irritation', 'eye-irritation:2,2A', 'GHS07', 'W'),
  s('H320', 'Causes eye irritation', 'eye-irritation:2B', '', 'W'),
  s('H330', 'Fatal if inhaled', 'acute-toxicity-inhalation:1,2', 'GHS06', 'D'),
  s('H331', 'Toxic if inhaled', 'acute-toxicity-inhalation:3', 'GHS06', 'D'),
  s('H332', 'Harmful if inhaled', 'acute-toxicity-inhalation:4', 'GHS07', 'W'),
  s('H333', 'May be harmful if inhaled', 'acute-toxicity-inhalation:5', '', 'W'),
  s('H334', 'May cause allergy or asthma symptoms or breathing difficulties if inhaled', 'respiratory-sensitizer:1,1A,1B', 'GHS08', 'D'),
  s('H335', 'May cause respiratory irritation', 'stot-single-exposure:3', 'GHS07', 'W'),
  s('H336', 'May cause drowsiness or dizziness', 'stot-single-exposure:3', 'GHS07', 'W'),
  s('H340', 'May cause genetic defects', 'germ-cell-mutagenicity:1,1A,1B', 'GHS08', 'D'),
  s('H341', 'Suspected of causing genetic defects', 'germ-cell-mutagenicity:2', 'GHS08', 'W'),
  s('H350', 'May cause cancer', 'carcinogenicity:1,1A,1B', 'GHS08', 'D'),
  s('H350i', 'May cause cancer by inhalation', 'carcinogenicity:1A,1B', 'GHS08', 'D', 'clp'),
  s('H351', 'Suspected of causing cancer', 'carcinogenicity:2', 'GHS08', 'W'),
  s('H360', 'May damage fertility or the unborn child', 'reproductive-toxicity:1,1A,1B', 'GHS08', 'D'),
  s('H360F', 'May damage fertility', 'reproductive-toxicity:1A,1B', 'GHS08', 'D', 'clp'),
  s('H360D', 'May damage the unborn child', 'reproductive-toxicity:1A,1B', 'GHS08', 'D', 'clp'),
  s('H360FD', 'May damage fertility. May damage the unborn child', 'reproductive-toxicity:1A,1B', 'GHS08', 'D', 'clp'),
  s('H360Fd', 'May damage fertility. Suspected of damaging the unborn child', 'reproductive-toxicity:1A,1B', 'GHS08', 'D', 'clp'),
  s('H360Df', 'May damage the unborn child. Suspected of damaging fertility', 'reproductive-toxicity:1A,1B', 'GHS08', 'D', 'clp'),
  s('H361', 'Suspected of damaging fertility or the unborn child', 'reproductive-toxicity:2', 'GHS08', 'W'),
  s('H361f', 'Suspected of damaging fertility', 'reproductive-toxicity:2', 'GHS08', 'W', 'clp'),
  s('H361d', 'Suspected of damaging the unborn child', 'reproductive-toxicity:2', 'GHS08', 'W', 'clp'),
  s('H361fd', 'Suspected of damaging fertility. Suspected of damaging the unborn child', 'reproductive-toxicity:2', 'GHS08', 'W', 'clp'),
  s('H362', 'May cause harm to breast-fed children', 'reproductive-toxicity:lactation', '', '-'),
  s('H370', 'Causes damage to organs', 'stot-single-exposure:1', 'GHS08', 'D'),
  s('H371', 'May cause damage to organs', 'stot-single-exposure:2', 'GHS08', 'W'),
  s('H372', 'Causes damage to organs through prolonged or repeated exposure', 'stot-repeated-exposure:1', 'GHS08', 'D'),
  s('H373', 'May cause damage to organs through prolonged or repeated exposure', 'stot-repeated-exposure:2', 'GHS08', 'W'),
  // Environmental hazards (Table A3.1.3)
  s('H400', 'Very toxic to aquatic life', 'aquatic-acute:1', 'GHS09', 'W'),
  s('H401', 'Toxic to aquatic life', 'aquatic-acute:2', '', '-'),
  s('H402', 'Harmful to aquatic life', 'aquatic-acute:3', '', '-'),
  s('H410', 'Very toxic to aquatic life with long lasting effects', 'aquatic-chronic:1', 'GHS09', 'W'),
  s('H411', 'Toxic to aquatic life with long lasting effects', 'aquatic-chronic:2', 'GHS09', '-'),
  s('H412', 'Harmful to aquatic life with long lasting effects', 'aquatic-chronic:3', '', '-'),
  s('H413', 'May cause long lasting harmful effects to aquatic life', 'aquatic-chronic:4', '', '-'),
  s('H420', 'Harms public health and the environment by destroying ozone in the upper atmosphere', 'ozone-layer:1', 'GHS07', 'W'),
];

// The combined statements of Annex 3 (A3.1.2 and A3.1.3): one text for several codes on one label.
const COMBINED: [string, string][] = [
  ['H300+H310', 'Fatal if swallowed or in contact with skin'],
  ['H300+H330', 'Fatal if swallowed or if inhaled'],
  ['H310+H330', 'Fatal in contact with skin or if inhaled'],
  ['H300+H310+H330', 'Fatal if swallowed, in contact with skin or if inhaled'],
  ['H301+H311', 'Toxic if swallowed or in contact with skin'],
  ['H301+H331', 'Toxic if swallowed or if inhaled'],
  ['H311+H331', 'Toxic in contact with skin or if inhaled'],
  ['H301+H311+H331', 'Toxic if swallowed, in contact with skin or if inhaled'],
  ['H302+H312', 'Harmful if swallowed or in contact with skin'],
  ['H302+H332', 'Harmful if swallowed or if inhaled'],
  ['H312+H332', 'Harmful in contact with skin or if inhaled'],
  ['H302+H312+H332', 'Harmful if swallowed, in contact with skin or if inhaled'],
  ['H303+H313', 'May be harmful if swallowed or in contact with skin'],
  ['H303+H333', 'May be harmful if swallowed or if inhaled'],
  ['H313+H333', 'May be harmful in contact with skin or if inhaled'],
  ['H303+H313+H333', 'May be harmful if swallowed, in contact with skin or if inhaled'],
  ['H315+H320', 'Causes skin and eye irritation'],
  ['H400+H410', 'Very toxic to aquatic life with long lasting effects'],
  ['H401+H411', 'Toxic to aquatic life with long lasting effects'],
  ['H402+H412', 'Harmful to aquatic life with long lasting effects'],
];

const BY_SINGLE = new Map(SINGLE.map((r) => [r.code, r]));

const combine = ([code, text]: [string, string]): StatementRule => {
  const parts = code.split('+').map((p) => BY_SINGLE.get(p)!);
  return {
    code,
    text,
    classes: parts.flatMap((p) => p.classes),
    pictograms: [...new Set(parts.flatMap((p) => p.pictograms))],
    signalWord: parts.some((p) => p.signalWord === 'Danger') ? 'Danger' : (parts.find((p) => p.signalWord)?.signalWord ?? null),
    origin: 'ghs',
    parts: parts.map((p) => p.code),
  };
};

/** Every statement Labstock accepts, single ones first in code order, then the combined ones. */
export const STATEMENTS: readonly StatementRule[] = [...SINGLE, ...COMBINED.map(combine)];

export const GHS_SOURCE =
  'UN GHS Rev. 10 (2023), Annex 1 and Annex 3; label precedence of GHS 1.4.10.5.3; EU CLP Annex III for H350i, H360F/D, H361f/d';
