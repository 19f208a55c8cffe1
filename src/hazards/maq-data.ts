// Maximum allowable quantities per control area (docs/safety.md), as data.
//
// Source: International Fire Code 2021 (International Code Council), Table 5003.1.1(1) "Maximum allowable quantity
// per control area of hazardous materials posing a physical hazard" and Table 5003.1.1(2) "... posing a health
// hazard", the storage columns, without the footnotes' increases (src/hazards/control-area-rules.ts applies the two
// Labstock offers: sprinklers and approved cabinets). Quantities are kept here as the code states them (pounds,
// gallons, cubic feet at NTP) and converted once to kg, L and m³. Where the code states a liquid in pounds (the
// values in parentheses in its liquid column), the litres assume 1 kg per litre: an approximation said in
// docs/safety.md. These are defaults, a starting point: the site's fire official decides the limits.

export type PhysicalState = 'solid' | 'liquid' | 'gas';

export interface MaqEntry {
  /** Labstock's id of the IFC category. */
  id: string;
  /** As a person reads it ("Flammable liquids IB and IC"). */
  label: string;
  table: '5003.1.1(1)' | '5003.1.1(2)';
  /** The code's figures: solids in pounds, liquids in gallons (or pounds, see liquidPounds), gases in cubic feet at NTP. */
  solidLb?: number;
  liquidGal?: number;
  liquidLb?: number;
  gasCuFt?: number;
}

export const MAQ_TABLE: readonly MaqEntry[] = [
  { id: 'flammable-liquid-ia', label: 'Flammable liquids IA', table: '5003.1.1(1)', liquidGal: 30 },
  { id: 'flammable-liquid-ib-ic', label: 'Flammable liquids IB and IC', table: '5003.1.1(1)', liquidGal: 120 },
  { id: 'flammable-liquid-combined', label: 'Flammable liquids IA, IB and IC together', table: '5003.1.1(1)', liquidGal: 120 },
  { id: 'combustible-liquid-ii', label: 'Combustible liquids II', table: '5003.1.1(1)', liquidGal: 120 },
  { id: 'combustible-liquid-iiia', label: 'Combustible liquids IIIA', table: '5003.1.1(1)', liquidGal: 330 },
  { id: 'flammable-gas', label: 'Flammable gases', table: '5003.1.1(1)', gasCuFt: 1000 },
  { id: 'flammable-solid', label: 'Flammable solids', table: '5003.1.1(1)', solidLb: 125 },
  { id: 'organic-peroxide-ud', label: 'Organic peroxides, unclassified detonable', table: '5003.1.1(1)', solidLb: 1, liquidLb: 1 },
  { id: 'organic-peroxide-i', label: 'Organic peroxides class I', table: '5003.1.1(1)', solidLb: 5, liquidLb: 5 },
  { id: 'organic-peroxide-ii', label: 'Organic peroxides class II', table: '5003.1.1(1)', solidLb: 50, liquidLb: 50 },
  { id: 'organic-peroxide-iii', label: 'Organic peroxides class III', table: '5003.1.1(1)', solidLb: 125, liquidLb: 125 },
  { id: 'oxidizer-4', label: 'Oxidizers class 4', table: '5003.1.1(1)', solidLb: 1, liquidLb: 1 },
  { id: 'oxidizer-3', label: 'Oxidizers class 3', table: '5003.1.1(1)', solidLb: 10, liquidLb: 10 },
  { id: 'oxidizer-2', label: 'Oxidizers class 2', table: '5003.1.1(1)', solidLb: 250, liquidLb: 250 },
  { id: 'oxidizer-1', label: 'Oxidizers class 1', table: '5003.1.1(1)', solidLb: 4000, liquidLb: 4000 },
  { id: 'oxidizing-gas', label: 'Oxidizing gases', table: '5003.1.1(1)', gasCuFt: 1500 },
  { id: 'pyrophoric', label: 'Pyrophoric materials', table: '5003.1.1(1)', solidLb: 4, liquidLb: 4, gasCuFt: 50 },
  { id: 'unstable-reactive-4', label: 'Unstable reactives class 4', table: '5003.1.1(1)', solidLb: 1, liquidLb: 1, gasCuFt: 10 },
  { id: 'unstable-reactive-3', label: 'Unstable reactives class 3', table: '5003.1.1(1)', solidLb: 5, liquidLb: 5, gasCuFt: 50 },
  { id: 'unstable-reactive-2', label: 'Unstable reactives class 2', table: '5003.1.1(1)', solidLb: 50, liquidLb: 50, gasCuFt: 750 },
  { id: 'water-reactive-3', label: 'Water-reactives class 3', table: '5003.1.1(1)', solidLb: 5, liquidLb: 5 },
  { id: 'water-reactive-2', label: 'Water-reactives class 2', table: '5003.1.1(1)', solidLb: 50, liquidLb: 50 },
  { id: 'corrosive', label: 'Corrosives', table: '5003.1.1(2)', solidLb: 5000, liquidGal: 500, gasCuFt: 810 },
  { id: 'highly-toxic', label: 'Highly toxic materials', table: '5003.1.1(2)', solidLb: 10, liquidLb: 10, gasCuFt: 20 },
  { id: 'toxic', label: 'Toxic materials', table: '5003.1.1(2)', solidLb: 500, liquidLb: 500, gasCuFt: 810 },
];

/**
 * GHS hazard class (and category) -> IFC categories, as the hazards rules table names them
 * (src/hazards/ghs-data.ts). The GHS and the IFC draw their lines in different places; `approximate` says where the
 * mapping cannot be exact (docs/safety.md lists why):
 * - Flammable liquids: GHS 1 (flash point < 23 °C, boiling point <= 35 °C) is IFC IA exactly; GHS 2 (flash point
 *   < 23 °C, boiling point > 35 °C) is IFC IB; GHS 3 (23-60 °C) spans IFC IC (< 37.8 °C) and combustible II
 *   (37.8-60 °C): counted as IB/IC, the stricter; GHS 4 (60-93 °C) is IFC IIIA exactly.
 * - Oxidizers: the IFC classes 1-4 are defined by burning-rate tests the GHS categories 1-3 resemble, not match:
 *   GHS 1 -> class 3, 2 -> class 2, 3 -> class 1; class 4 is not derivable from H-codes.
 * - Organic peroxides: GHS type A -> unclassified detonable, B -> I, C and D -> II, E and F -> III; G is not limited.
 * - Self-reactive substances -> unstable reactives: A -> 4, B -> 3, C and D -> 2 (E, F: class 1, not limited).
 * - Substances that emit flammable gas with water: GHS 1 -> water-reactive 3, 2 -> 2 (3 -> class 1, not limited).
 * - Acute toxicity: GHS 1 and 2 -> highly toxic, 3 -> toxic (the IFC's oral LD50 lines are 50 and 500 mg/kg, the
 *   GHS's 5, 50, 300): approximate.
 * - Skin corrosion 1 (1A, 1B, 1C) -> corrosives.
 */
export interface MaqMapping {
  classId: string;
  /** GHS categories this row covers; empty: every category of the class. */
  categories: readonly string[];
  ifc: readonly string[];
  /** The state the class itself fixes (a flammable liquid is a liquid); otherwise the unit size's family decides. */
  state?: PhysicalState;
  approximate: boolean;
}

export const GHS_TO_IFC: readonly MaqMapping[] = [
  {
    classId: 'flammable-liquid',
    categories: ['1'],
    ifc: ['flammable-liquid-ia', 'flammable-liquid-combined'],
    state: 'liquid',
    approximate: false,
  },
  {
    classId: 'flammable-liquid',
    categories: ['2'],
    ifc: ['flammable-liquid-ib-ic', 'flammable-liquid-combined'],
    state: 'liquid',
    approximate: false,
  },
  {
    classId: 'flammable-liquid',
    categories: ['3'],
    ifc: ['flammable-liquid-ib-ic', 'flammable-liquid-combined'],
    state: 'liquid',
    approximate: true,
  },
  { classId: 'flammable-liquid', categories: ['4'], ifc: ['combustible-liquid-iiia'], state: 'liquid', approximate: false },
  { classId: 'flammable-gas', categories: [], ifc: ['flammable-gas'], state: 'gas', approximate: false },
  { classId: 'flammable-solid', categories: [], ifc: ['flammable-solid'], state: 'solid', approximate: false },
  { classId: 'organic-peroxide', categories: ['A'], ifc: ['organic-peroxide-ud'], approximate: true },
  { classId: 'organic-peroxide', categories: ['B'], ifc: ['organic-peroxide-i'], approximate: true },
  { classId: 'organic-peroxide', categories: ['C', 'D'], ifc: ['organic-peroxide-ii'], approximate: true },
  { classId: 'organic-peroxide', categories: ['E', 'F'], ifc: ['organic-peroxide-iii'], approximate: true },
  { classId: 'oxidizing-liquid', categories: ['1'], ifc: ['oxidizer-3'], state: 'liquid', approximate: true },
  { classId: 'oxidizing-liquid', categories: ['2'], ifc: ['oxidizer-2'], state: 'liquid', approximate: true },
  { classId: 'oxidizing-liquid', categories: ['3'], ifc: ['oxidizer-1'], state: 'liquid', approximate: true },
  { classId: 'oxidizing-solid', categories: ['1'], ifc: ['oxidizer-3'], state: 'solid', approximate: true },
  { classId: 'oxidizing-solid', categories: ['2'], ifc: ['oxidizer-2'], state: 'solid', approximate: true },
  { classId: 'oxidizing-solid', categories: ['3'], ifc: ['oxidizer-1'], state: 'solid', approximate: true },
  { classId: 'oxidizing-gas', categories: [], ifc: ['oxidizing-gas'], state: 'gas', approximate: false },
  { classId: 'pyrophoric-liquid', categories: [], ifc: ['pyrophoric'], state: 'liquid', approximate: false },
  { classId: 'pyrophoric-solid', categories: [], ifc: ['pyrophoric'], state: 'solid', approximate: false },
  { classId: 'pyrophoric-gas', categories: [], ifc: ['pyrophoric'], state: 'gas', approximate: false },
  { classId: 'self-reactive', categories: ['A'], ifc: ['unstable-reactive-4'], approximate: true },
  { classId: 'self-reactive', categories: ['B'], ifc: ['unstable-reactive-3'], approximate: true },
  { classId: 'self-reactive', categories: ['C', 'D'], ifc: ['unstable-reactive-2'], approximate: true },
  { classId: 'water-reactive', categories: ['1'], ifc: ['water-reactive-3'], approximate: true },
  { classId: 'water-reactive', categories: ['2'], ifc: ['water-reactive-2'], approximate: true },
  { classId: 'skin-corrosion', categories: ['1', '1A', '1B', '1C'], ifc: ['corrosive'], approximate: false },
  { classId: 'acute-toxicity-oral', categories: ['1', '2'], ifc: ['highly-toxic'], approximate: true },
  { classId: 'acute-toxicity-oral', categories: ['3'], ifc: ['toxic'], approximate: true },
  { classId: 'acute-toxicity-dermal', categories: ['1', '2'], ifc: ['highly-toxic'], approximate: true },
  { classId: 'acute-toxicity-dermal', categories: ['3'], ifc: ['toxic'], approximate: true },
  { classId: 'acute-toxicity-inhalation', categories: ['1', '2'], ifc: ['highly-toxic'], approximate: true },
  { classId: 'acute-toxicity-inhalation', categories: ['3'], ifc: ['toxic'], approximate: true },
];
