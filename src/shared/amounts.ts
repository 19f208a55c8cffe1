import { convert, getMeasureKind, MeasureKind, type Unit } from 'convert';
import { type Dec, dec } from './decimal.js';

// An item's unit_size stays the contract's free string ("100 µL", "2.5 kg", "500 tablets"). Here it is read into an
// amount in a unit family where that can be done without guessing, and anything else is "unknown"
// (docs/decisions/0026-units.md lists what is read and why). Unit names and conversion factors come from the
// `convert` package; the arithmetic is decimal.js, so 3 × 0.1 L is exactly 0.3 L.

export type AmountFamily = 'mass' | 'volume' | 'count';

/** The unit every amount of a family is reported in. */
export const BASE_UNIT = { mass: 'kg', volume: 'L', count: 'count' } as const satisfies Record<AmountFamily, string>;

/** A unit size that could not be read: reported as unknown, never guessed. */
export interface UnknownAmount {
  family: 'unknown';
}

/** A unit size read from its text. */
export interface UnitSize {
  family: AmountFamily;
  /** The amount as written, after a pack's multiplier ("10 x 1 mL" is 10 mL). */
  amount: Dec;
  /** The unit as the library names it ("mL", "µg", "gal"), or for counts the singular noun ("tablet", "piece"). */
  unit: string;
  /** The same amount in the family's base unit (kg, L or count). */
  base: Dec;
}

/** An amount in its family's base unit: kg, L, or a count (of `noun`s when they are all the same thing). */
export interface Amount {
  family: AmountFamily;
  base: Dec;
  noun?: string;
}

export const UNKNOWN: UnknownAmount = Object.freeze({ family: 'unknown' });

export const isKnown = <T extends UnitSize | Amount>(a: T | UnknownAmount): a is T => a.family !== 'unknown';

// Counted things: each line is the noun shown in totals (singular, plural) and then its other spellings. These are
// words, not conversions: a count's factor is 1. "each", "pcs" and "units" say nothing of what is counted: pieces.
const COUNTED = [
  'piece pieces each ea ea. pc pcs pc. pcs. unit units',
  'tablet tablets tab tabs',
  'capsule capsules caps',
  'vial vials',
  'ampoule ampoules ampule ampules',
  'tube tubes',
  'test tests',
  'reaction reactions rxn rxns',
  'plate plates',
  'slide slides',
  'kit kits',
  'bottle bottles',
  'box boxes',
  'pack packs',
  'bag bags',
  'roll rolls',
  'sheet sheets',
  'cylinder cylinders',
];
const PIECE = 'piece';
const COUNT_NOUNS = new Map<string, string>();
const PLURAL = new Map<string, string>();
for (const line of COUNTED) {
  const [one, many, ...others] = line.split(' ') as [string, string, ...string[]];
  PLURAL.set(one, many);
  for (const w of [one, many, ...others]) COUNT_NOUNS.set(w, one);
}

// The usual lab spellings of metric mass and volume, whatever their case ("ML", "Kg", "uL", "ul"): in a unit size
// "ML" is a millilitre, not a megalitre, so no prefix above kilo is read from them.
const METRIC = /^(k|h|da|d|c|m|µ|u|n|p)?(l|g)$/;
const ALIASES = new Map([
  ['mcg', 'µg'],
  ['mcl', 'µL'],
  ['cc', 'mL'],
  ['gm', 'g'],
  ['gms', 'g'],
  ['lt', 'L'],
  ['ltr', 'L'],
  ['ltrs', 'L'],
]);

/** The library's unit for a spelling, with its family, or undefined. */
function unitOf(token: string): { unit: Unit; family: 'mass' | 'volume' } | undefined {
  const lower = token.toLowerCase();
  const metric = METRIC.exec(lower);
  let name: string = token;
  if (metric) name = `${metric[1] === 'u' ? 'µ' : (metric[1] ?? '')}${metric[2] === 'l' ? 'L' : 'g'}`;
  else if (ALIASES.has(lower)) name = ALIASES.get(lower)!;
  for (const candidate of metric || ALIASES.has(lower) ? [name] : [token, lower]) {
    const kind = getMeasureKind(candidate);
    if (kind === MeasureKind.Mass) return { unit: candidate as Unit, family: 'mass' };
    if (kind === MeasureKind.Volume) return { unit: candidate as Unit, family: 'volume' };
  }
  return undefined;
}

const factors = new Map<string, Dec>();
/**
 * How many base units one `unit` is. The library computes in binary floating point (1 µg comes out as
 * 9.999999999999999e-10 kg); every real factor it holds has at most 12 significant digits (the US gallon is
 * exactly 3.785411784 L), so rounding its answer to 15 digits recovers the exact decimal factor.
 */
function factorOf(unit: Unit, family: 'mass' | 'volume'): Dec {
  let f = factors.get(unit);
  if (f === undefined) {
    const raw = (convert(1, unit) as { to(u: string): number }).to(BASE_UNIT[family]);
    f = dec(raw.toPrecision(15));
    factors.set(unit, f);
  }
  return f;
}

// A number as written in a unit size: "2.5", ".5", or with a decimal comma "2,5". "1,000" could be a thousand or
// one (a thousands separator or a decimal comma): it is not read.
const NUMBER = String.raw`(\d{1,20}(?:[.,]\d{1,10})?|\.\d{1,10})`;
const SIZE = new RegExp(String.raw`^(?:(\d{1,6})\s*[x×*]\s*)?${NUMBER}\s*([^\d\s.,][^\d]*?)$`, 'i');

function readNumber(text: string): Dec | undefined {
  if (/^\d{1,3},\d{3}$/.test(text)) return undefined;
  return dec(text.startsWith('.') ? `0${text}` : text.replace(',', '.'));
}

/** Reads a unit size: "100 µL", "2.5 kg", "500mL", "10 x 1 mL", "2,5 kg", "1 gal", "500 tablets". */
export function parseUnitSize(text: string | null | undefined): UnitSize | UnknownAmount {
  if (typeof text !== 'string') return UNKNOWN;
  // NFKC reads full-width digits and turns the micro sign into Greek mu; the library spells micro with the micro
  // sign (U+00B5), so both mus become that.
  const cleaned = text
    .normalize('NFKC')
    .replace(/\u03bc/g, '\u00b5')
    .replace(/\s+/g, ' ')
    .trim();
  const m = SIZE.exec(cleaned);
  if (!m) return UNKNOWN;
  const [, packs, num, rawUnit] = m;
  const n = readNumber(num!);
  if (n === undefined) return UNKNOWN;
  const amount = packs === undefined ? n : n.mul(packs);
  const token = rawUnit!.trim();
  const noun = COUNT_NOUNS.get(token.toLowerCase());
  if (noun !== undefined) {
    // "10 x 5 tablets" is 50 tablets.
    return { family: 'count', amount, unit: noun, base: amount };
  }
  const found = unitOf(token);
  if (found === undefined) return UNKNOWN;
  return { family: found.family, amount, unit: found.unit, base: amount.mul(factorOf(found.unit, found.family)) };
}

const QUANTITY = /^\d{1,20}(\.\d{1,10})?$/;

/** quantity × unit size in the family's base unit (kg, L, count), or unknown. */
export function totalAmount(quantity: string, unitSize: string | null | undefined): Amount | UnknownAmount {
  if (!QUANTITY.test(quantity)) return UNKNOWN;
  const size = parseUnitSize(unitSize);
  if (!isKnown(size)) return UNKNOWN;
  const base = size.base.mul(quantity);
  return size.family === 'count' ? { family: 'count', base, noun: size.unit } : { family: size.family, base };
}

/** Totals of many amounts: one per family present, and how many were unknown. */
export interface AmountTotals {
  mass?: Amount;
  volume?: Amount;
  count?: Amount;
  unknown: number;
}

export function sumAmounts(amounts: Iterable<Amount | UnknownAmount>): AmountTotals {
  const totals: AmountTotals = { unknown: 0 };
  for (const a of amounts) {
    if (!isKnown(a)) {
      totals.unknown += 1;
      continue;
    }
    const prev = totals[a.family];
    if (prev === undefined) totals[a.family] = { ...a };
    else {
      // Counts of different things add up as pieces.
      const noun = prev.noun === a.noun ? prev.noun : PIECE;
      totals[a.family] = { family: a.family, base: prev.base.plus(a.base), ...(a.family === 'count' ? { noun } : {}) };
    }
  }
  return totals;
}

// Shown in the unit that keeps the figure at 1 or more: 750 mL, 2.5 L, 1.2 kg, 40 µg.
const SHOWN = {
  mass: ['kg', 'g', 'mg', 'µg'],
  volume: ['L', 'mL', 'µL'],
} as const satisfies Record<'mass' | 'volume', readonly Unit[]>;

const figure = new Intl.NumberFormat('en', { maximumFractionDigits: 3 });
// Intl.NumberFormat formats a decimal string exactly (no float on the way).
const formatDecimal = (d: Dec): string => figure.format(d.toFixed() as unknown as number);

/** Words for an amount: "2.5 L", "750 mL", "1.2 kg", "1,500 tablets". */
export function humanAmount(a: Amount): string {
  if (a.family === 'count') {
    const noun = a.noun ?? PIECE;
    return `${formatDecimal(a.base)} ${a.base.eq(1) ? noun : (PLURAL.get(noun) ?? noun)}`;
  }
  const units = SHOWN[a.family];
  if (a.base.isZero()) return `0 ${BASE_UNIT[a.family]}`;
  for (const unit of units) {
    const shown = a.base.div(factorOf(unit, a.family));
    if (shown.gte(1) || unit === units[units.length - 1]) return `${formatDecimal(shown)} ${unit}`;
  }
  return `${formatDecimal(a.base)} ${BASE_UNIT[a.family]}`;
}

/** An amount as the application API gives it: the base-unit figure as a decimal string, and the words. */
export interface AmountView {
  family: AmountFamily | 'unknown';
  /** In `unit`; null when unknown. */
  amount: string | null;
  unit: 'kg' | 'L' | 'count' | null;
  /** "2.5 L", "750 mL", "1,500 tablets"; null when unknown. */
  text: string | null;
}

export function amountView(a: Amount | UnknownAmount): AmountView {
  if (!isKnown(a)) return { family: 'unknown', amount: null, unit: null, text: null };
  return { family: a.family, amount: a.base.toFixed(), unit: BASE_UNIT[a.family], text: humanAmount(a) };
}
