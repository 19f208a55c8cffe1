import { AppError, type FieldError } from '../shared/errors.js';
import { CLASS_BY_ID, type Pictogram, type SignalWord } from './ghs-classes.js';
import { STATEMENTS, type StatementRule } from './ghs-data.js';

// From hazard statements to what a label shows (docs/hazards.md): pure functions over the rules table of
// src/hazards/ghs-data.ts. The precedence rules are GHS Rev. 10, 1.4.10.5.3.1 (pictograms) and 1.4.10.5.2 (signal
// word): if the skull and crossbones applies, the exclamation mark does not appear; if the corrosion pictogram
// applies, the exclamation mark does not appear for skin or eye irritation; if the health hazard pictogram applies
// for respiratory sensitization, the exclamation mark does not appear for skin sensitization or skin or eye
// irritation; and "Danger" replaces "Warning".

export interface ClassifiedClass {
  id: string;
  /** The most severe category the statements give. */
  category: string;
  /** Every category the statements allow, most severe first (H272 is oxidizing liquid 2 or 3). */
  categories: string[];
}

export interface Classification {
  /** The statements, normalized ("h225" is H225, "H300 + H310" is H300+H310), without repeats, in table order. */
  codes: string[];
  classes: ClassifiedClass[];
  /** GHS01..GHS09, in number order, after the precedence rules. */
  pictograms: Pictogram[];
  signalWord: SignalWord | null;
}

/** How many statements one item or type may carry: a real SDS has under 20. */
export const MAX_STATEMENTS = 40;

const BY_CODE = new Map(STATEMENTS.map((r) => [r.code, r]));
const BY_UPPER = new Map<string, StatementRule[]>();
for (const r of STATEMENTS) {
  const list = BY_UPPER.get(r.code.toUpperCase()) ?? [];
  list.push(r);
  BY_UPPER.set(r.code.toUpperCase(), list);
}
const ORDER = new Map(STATEMENTS.map((r, i) => [r.code, i]));

/** The rule of one statement as entered ("h225", " H300 + H310 ", "H360Fd"), or undefined when it is none of the table's. */
export function findStatement(raw: string): StatementRule | undefined {
  const squeezed = raw.trim().replace(/\s*\+\s*/g, '+');
  const shaped = squeezed.replace(/(^|\+)h/g, '$1H');
  const exact = BY_CODE.get(shaped);
  if (exact) return exact;
  // CLP's letters are case-significant (H360Fd is not H360FD); any other spelling is accepted when it is unambiguous.
  const loose = BY_UPPER.get(shaped.toUpperCase());
  return loose?.length === 1 ? loose[0] : undefined;
}

function whyUnknown(raw: string): string {
  const parts = raw.trim().split(/\s*\+\s*/);
  if (parts.length > 1 && parts.every((p) => findStatement(p)))
    return `"${raw.trim()}" is not one of the combined statements of GHS Annex 3: enter ${parts.map((p) => findStatement(p)!.code).join(' and ')} separately`;
  if (/^EUH/i.test(raw.trim())) return `"${raw.trim()}" is an EU supplemental statement, not a GHS hazard statement`;
  if (/^P\d/i.test(raw.trim())) return `"${raw.trim()}" is a precautionary statement; only hazard statements (H200 to H420) are recorded`;
  return `"${raw.trim()}" is not a GHS hazard statement (H200 to H420)`;
}

/**
 * The normalized codes of what was entered, or a 422 naming each one that is not in the table (nothing is kept
 * when one is wrong). `field` names the input in the error ("hazard_statements", "hazard_statements[2]").
 */
export function normalizeCodes(raw: readonly string[], field = 'hazard_statements'): string[] {
  const errors: FieldError[] = [];
  const found = new Set<string>();
  raw.forEach((r, i) => {
    const rule = typeof r === 'string' && r.trim() !== '' ? findStatement(r) : undefined;
    if (rule) found.add(rule.code);
    else
      errors.push({
        field: `${field}[${i}]`,
        message: typeof r === 'string' && r.trim() ? whyUnknown(r) : 'must be a hazard statement code such as H225',
      });
  });
  if (found.size > MAX_STATEMENTS) errors.push({ field, message: `at most ${MAX_STATEMENTS} hazard statements` });
  if (errors.length > 0) throw new AppError('validation_failed', errors.map((e) => e.message).join('; '), { errors });
  return [...found].sort((a, b) => ORDER.get(a)! - ORDER.get(b)!);
}

/** Classifies statements that normalizeCodes accepted (throws the same 422 otherwise). */
export function classify(codes: readonly string[]): Classification {
  const normalized = normalizeCodes(codes);
  const rules = normalized.map((c) => BY_CODE.get(c)!);
  const parts = rules.flatMap((r) => r.parts.map((p) => BY_CODE.get(p)!));

  const classes = new Map<string, Set<string>>();
  for (const p of parts)
    for (const k of p.classes) for (const cat of k.categories) (classes.get(k.id) ?? classes.set(k.id, new Set()).get(k.id)!).add(cat);
  const classified: ClassifiedClass[] = [...classes].map(([id, cats]) => {
    const order = CLASS_BY_ID.get(id)!.categories;
    const categories = [...cats].sort((a, b) => order.indexOf(a) - order.indexOf(b));
    return { id, category: categories[0]!, categories };
  });
  const classOrder = [...CLASS_BY_ID.keys()];
  classified.sort((a, b) => classOrder.indexOf(a.id) - classOrder.indexOf(b.id));

  return { codes: normalized, classes: classified, pictograms: pictogramsOf(parts), signalWord: signalWordOf(parts) };
}

const IRRITATION = new Set(['skin-irritation', 'eye-irritation']);

function pictogramsOf(parts: StatementRule[]): Pictogram[] {
  const all = new Set(parts.flatMap((p) => p.pictograms));
  const respiratorySensitizer = parts.some((p) => p.classes.some((k) => k.id === 'respiratory-sensitizer'));
  // The reasons the exclamation mark is there, each dropped when a rule of 1.4.10.5.3.1 says so.
  const exclamation = parts
    .filter((p) => p.pictograms.includes('GHS07') && !all.has('GHS06'))
    .filter((p) => !(all.has('GHS05') && p.classes.every((k) => IRRITATION.has(k.id))))
    .filter((p) => !(respiratorySensitizer && p.classes.every((k) => IRRITATION.has(k.id) || k.id === 'skin-sensitizer')));
  if (exclamation.length === 0) all.delete('GHS07');
  return [...all].sort();
}

function signalWordOf(parts: StatementRule[]): SignalWord | null {
  if (parts.some((p) => p.signalWord === 'Danger')) return 'Danger';
  return parts.some((p) => p.signalWord === 'Warning') ? 'Warning' : null;
}

/** The codes (single and combined) that give a class: the inventory filter and the hazard reports look for these. */
export function codesOfClass(classId: string): string[] {
  return STATEMENTS.filter((r) => r.parts.some((p) => BY_CODE.get(p)!.classes.some((k) => k.id === classId))).map((r) => r.code);
}

export const isHazardClass = (id: string): boolean => CLASS_BY_ID.has(id);
