// The GHS hazard classes Labstock derives from hazard statements (docs/hazards.md). Source: UN GHS, Rev. 10 (2023),
// Part 2 (physical), Part 3 (health), Part 4 (environmental) and the class/category column of Annex 3, Table A3.1.
// Ids are kebab-case and stable: segregation, control areas, reports, labels and the inventory filter name them.
// GHS's "skin corrosion/irritation" and "serious eye damage/eye irritation" are split into two ids each, because
// storage and segregation rules treat a corrosive and an irritant differently.

export type HazardKind = 'physical' | 'health' | 'environmental';

export interface HazardClass {
  id: string;
  /** English words for people. */
  name: string;
  kind: HazardKind;
  /** Every category a statement can give, most severe first (merging keeps the most severe). */
  categories: readonly string[];
}

const c = (id: string, name: string, kind: HazardKind, categories: string[]): HazardClass => ({ id, name, kind, categories });

export const HAZARD_CLASSES: readonly HazardClass[] = [
  c('explosive', 'Explosive', 'physical', ['unstable', '1', '1.1', '1.2', '1.3', '1.5', '2A', '1.4', '2B']),
  c('flammable-gas', 'Flammable gas', 'physical', ['1A', '1B', '2']),
  c('pyrophoric-gas', 'Pyrophoric gas', 'physical', ['1A']),
  c('chemically-unstable-gas', 'Chemically unstable gas', 'physical', ['A', 'B']),
  c('aerosol', 'Aerosol', 'physical', ['1', '2', '3']),
  c('chemical-under-pressure', 'Chemical under pressure', 'physical', ['1', '2', '3']),
  c('oxidizing-gas', 'Oxidizing gas', 'physical', ['1']),
  c('gas-under-pressure', 'Gas under pressure', 'physical', ['compressed', 'liquefied', 'dissolved', 'refrigerated-liquefied']),
  c('flammable-liquid', 'Flammable liquid', 'physical', ['1', '2', '3', '4']),
  c('flammable-solid', 'Flammable solid', 'physical', ['1', '2']),
  c('self-reactive', 'Self-reactive substance', 'physical', ['A', 'B', 'C', 'D', 'E', 'F']),
  c('pyrophoric-liquid', 'Pyrophoric liquid', 'physical', ['1']),
  c('pyrophoric-solid', 'Pyrophoric solid', 'physical', ['1']),
  c('self-heating', 'Self-heating substance', 'physical', ['1', '2']),
  c('water-reactive', 'Emits flammable gas in contact with water', 'physical', ['1', '2', '3']),
  c('oxidizing-liquid', 'Oxidizing liquid', 'physical', ['1', '2', '3']),
  c('oxidizing-solid', 'Oxidizing solid', 'physical', ['1', '2', '3']),
  c('organic-peroxide', 'Organic peroxide', 'physical', ['A', 'B', 'C', 'D', 'E', 'F']),
  c('corrosive-to-metals', 'Corrosive to metals', 'physical', ['1']),
  c('desensitized-explosive', 'Desensitized explosive', 'physical', ['1', '2', '3', '4']),
  c('acute-toxicity-oral', 'Acute toxicity (swallowed)', 'health', ['1', '2', '3', '4', '5']),
  c('acute-toxicity-dermal', 'Acute toxicity (skin contact)', 'health', ['1', '2', '3', '4', '5']),
  c('acute-toxicity-inhalation', 'Acute toxicity (inhaled)', 'health', ['1', '2', '3', '4', '5']),
  c('skin-corrosion', 'Skin corrosion', 'health', ['1', '1A', '1B', '1C']),
  c('skin-irritation', 'Skin irritation', 'health', ['2', '3']),
  c('serious-eye-damage', 'Serious eye damage', 'health', ['1']),
  c('eye-irritation', 'Eye irritation', 'health', ['2', '2A', '2B']),
  c('respiratory-sensitizer', 'Respiratory sensitizer', 'health', ['1', '1A', '1B']),
  c('skin-sensitizer', 'Skin sensitizer', 'health', ['1', '1A', '1B']),
  c('germ-cell-mutagenicity', 'Germ cell mutagen', 'health', ['1', '1A', '1B', '2']),
  c('carcinogenicity', 'Carcinogen', 'health', ['1', '1A', '1B', '2']),
  c('reproductive-toxicity', 'Reproductive toxicant', 'health', ['1', '1A', '1B', '2', 'lactation']),
  c('stot-single-exposure', 'Organ toxicity, single exposure', 'health', ['1', '2', '3']),
  c('stot-repeated-exposure', 'Organ toxicity, repeated exposure', 'health', ['1', '2']),
  c('aspiration-hazard', 'Aspiration hazard', 'health', ['1', '2']),
  c('aquatic-acute', 'Hazardous to aquatic life (acute)', 'environmental', ['1', '2', '3']),
  c('aquatic-chronic', 'Hazardous to aquatic life (long-term)', 'environmental', ['1', '2', '3', '4']),
  c('ozone-layer', 'Hazardous to the ozone layer', 'environmental', ['1']),
];

export const CLASS_BY_ID: ReadonlyMap<string, HazardClass> = new Map(HAZARD_CLASSES.map((k) => [k.id, k]));

export const PICTOGRAMS = {
  GHS01: 'Exploding bomb',
  GHS02: 'Flame',
  GHS03: 'Flame over circle',
  GHS04: 'Gas cylinder',
  GHS05: 'Corrosion',
  GHS06: 'Skull and crossbones',
  GHS07: 'Exclamation mark',
  GHS08: 'Health hazard',
  GHS09: 'Environment',
} as const;

export type Pictogram = keyof typeof PICTOGRAMS;
export type SignalWord = 'Danger' | 'Warning';
