// What a person types into a number field, read as they meant it (docs/web.md, "Numbers as typed"): the text is kept
// as typed, surrounding spaces are ignored, a decimal comma is accepted where the person's locale writes one, and
// anything the field cannot take is refused with a sentence for under the field. Nothing is rounded or clamped.

export interface DecimalRules {
  /** Whole numbers only (a count of bottles, a shipment's units). */
  integer?: boolean;
  /** The smallest value allowed, inclusive (default: anything above 0 unless allowZero or allowNegative). */
  min?: string | number;
  /** The largest value allowed, inclusive: above it is refused with a message, never clamped. */
  max?: string | number;
  allowZero?: boolean;
  /** A change relative to what is there ("-0.5"). */
  allowNegative?: boolean;
  /** Empty is fine (an optional field): value undefined, no error. */
  optional?: boolean;
}

export interface ParsedDecimal {
  /** The number as the API takes it ("2.5"), when valid. */
  value?: string;
  /** Why it cannot be taken, for under the field. */
  error?: string;
}

/** The decimal separator of a locale ("," for de-DE and fr-FR, "." for en-US). */
export function decimalSeparator(locale?: string): string {
  const part = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal');
  return part?.value ?? '.';
}

// Through globalThis: this file is also compiled by the server's tsconfig (test/web/decimal.test.ts), which has no DOM.
const browserLocale = (): string | undefined => (globalThis as { navigator?: { language?: string } }).navigator?.language;

const PLAIN = /^-?\d{1,20}(\.\d{1,10})?$/;

/** Reads `text` as typed; `locale` defaults to the browser's. */
export function parseDecimal(text: string, rules: DecimalRules = {}, locale: string | undefined = browserLocale()): ParsedDecimal {
  const trimmed = text.trim().replace(/^\+/, '').replace(/^−/, '-');
  if (trimmed === '') return rules.optional ? {} : { error: 'Enter a number.' };
  const comma = decimalSeparator(locale) === ',';
  let normal = trimmed;
  if (trimmed.includes(',')) {
    if (!comma) return { error: `Use a point for decimals, as in ${trimmed.replace(',', '.')}.` };
    if (trimmed.includes('.') || trimmed.split(',').length > 2) return { error: 'Write the number without thousands separators.' };
    normal = trimmed.replace(',', '.');
  }
  if (!PLAIN.test(normal)) return { error: 'Enter a number such as 2 or 2.5.' };
  const n = Number(normal);
  if (rules.integer && !Number.isInteger(n)) return { error: 'Enter a whole number.' };
  if (n < 0 && !rules.allowNegative) return { error: 'Enter a number above zero.' };
  if (n === 0 && !rules.allowZero)
    return { error: rules.allowNegative ? 'A change of zero changes nothing.' : 'Enter a number above zero.' };
  if (rules.min !== undefined && n < Number(rules.min)) return { error: `The smallest allowed here is ${rules.min}.` };
  if (rules.max !== undefined && n > Number(rules.max)) return { error: `At most ${rules.max} here.` };
  // Drop a leading zero run and a trailing point the API would refuse ("02.50" stays "2.50": trailing zeros are kept).
  const value = normal.replace(/^(-?)0+(?=\d)/, '$1');
  return { value };
}
