// The segregation table (docs/safety.md), as data: storage groups and which of them must not share a location.
//
// Sources: the storage groups of Georgia Tech EHS, Laboratory Safety Manual §14-2 "Segregation and Storage of
// Chemicals According to Hazard Class" (acids, bases, flammables, oxidizers, water reactives, air reactives
// (pyrophorics), extremely toxic), and the incompatibilities column of Georgetown University EHS "Chemical
// Segregation" (oxidizers apart from flammables and combustibles, and from organic peroxides; flammable liquids
// apart from acids, bases, oxidizers and poisons; acids apart from flammables, bases and oxidizers) and of NDSU's
// "Chemical Segregation and Storage Table" (acids and bases apart from poisons/toxins). Acids, bases and aqueous
// solutions are not GHS classes: they are storage attributes recorded per type or item (migration 0037).

export type StorageGroup =
  | 'flammable'
  | 'oxidizer'
  | 'organic-peroxide'
  | 'pyrophoric'
  | 'water-reactive'
  | 'acid'
  | 'base'
  | 'aqueous'
  | 'toxic';

export const GROUP_LABEL: Record<StorageGroup, string> = {
  flammable: 'flammables',
  oxidizer: 'oxidizers',
  'organic-peroxide': 'organic peroxides',
  pyrophoric: 'pyrophorics',
  'water-reactive': 'water-reactives',
  acid: 'acids',
  base: 'bases',
  aqueous: 'aqueous solutions',
  toxic: 'highly toxic substances',
};

/** GHS class id -> storage group; categories limit a row (empty: all). Classes not listed join no group. */
export const CLASS_GROUPS: readonly { classId: string; categories: readonly string[]; group: StorageGroup }[] = [
  { classId: 'flammable-liquid', categories: ['1', '2', '3'], group: 'flammable' },
  { classId: 'flammable-gas', categories: [], group: 'flammable' },
  { classId: 'flammable-solid', categories: [], group: 'flammable' },
  { classId: 'aerosol', categories: ['1', '2'], group: 'flammable' },
  { classId: 'oxidizing-liquid', categories: [], group: 'oxidizer' },
  { classId: 'oxidizing-solid', categories: [], group: 'oxidizer' },
  { classId: 'oxidizing-gas', categories: [], group: 'oxidizer' },
  { classId: 'organic-peroxide', categories: [], group: 'organic-peroxide' },
  { classId: 'pyrophoric-liquid', categories: [], group: 'pyrophoric' },
  { classId: 'pyrophoric-solid', categories: [], group: 'pyrophoric' },
  { classId: 'pyrophoric-gas', categories: [], group: 'pyrophoric' },
  { classId: 'water-reactive', categories: [], group: 'water-reactive' },
  { classId: 'acute-toxicity-oral', categories: ['1', '2'], group: 'toxic' },
  { classId: 'acute-toxicity-dermal', categories: ['1', '2'], group: 'toxic' },
  { classId: 'acute-toxicity-inhalation', categories: ['1', '2'], group: 'toxic' },
];

/** Pairs that must not share a location, each with why (in words a person reads). Symmetric. */
export const INCOMPATIBLE: readonly { a: StorageGroup; b: StorageGroup; why: string }[] = [
  { a: 'oxidizer', b: 'flammable', why: 'an oxidizer feeds a fire of flammables' },
  { a: 'oxidizer', b: 'organic-peroxide', why: 'oxidizers and organic peroxides are kept apart' },
  { a: 'oxidizer', b: 'pyrophoric', why: 'a pyrophoric ignites in air and an oxidizer feeds the fire' },
  { a: 'oxidizer', b: 'acid', why: 'oxidizers and acids are kept apart' },
  { a: 'oxidizer', b: 'base', why: 'oxidizers and bases are kept apart' },
  { a: 'acid', b: 'base', why: 'acids and bases react violently, with heat' },
  { a: 'acid', b: 'flammable', why: 'acids are kept apart from flammables' },
  { a: 'base', b: 'flammable', why: 'bases are kept apart from flammables' },
  { a: 'water-reactive', b: 'aqueous', why: 'a water-reactive gives off flammable gas with water' },
  { a: 'water-reactive', b: 'acid', why: 'a water-reactive gives off flammable gas with acids' },
  { a: 'water-reactive', b: 'base', why: 'a water-reactive gives off flammable gas with aqueous bases' },
  { a: 'pyrophoric', b: 'aqueous', why: 'pyrophorics react with water' },
  { a: 'pyrophoric', b: 'flammable', why: 'a pyrophoric ignites in air and lights flammables' },
  { a: 'toxic', b: 'flammable', why: 'highly toxic substances are kept apart from flammables' },
  { a: 'toxic', b: 'acid', why: 'highly toxic substances are kept apart from acids' },
  { a: 'toxic', b: 'base', why: 'highly toxic substances are kept apart from bases' },
];
