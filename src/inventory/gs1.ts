import { createRequire } from 'node:module';
import { fieldError } from '../shared/errors.js';
import type { VendorBarcode } from './gs1-schemas.js';

// Vendor barcodes at receiving (docs/product.md §14 "Vendor barcodes", docs/scanning.md): a manufacturer's GS1-128
// or GS1 DataMatrix carries its GTIN (AI 01), lot (10), production date (11), expiry (17) and serial (21) as an
// element string. The maintained gs1-barcode-parser-mod splits it; what it lets through that GS1 forbids (a wrong
// GTIN check digit, month 13, an empty or over-long lot) is refused here, so a reading is whole or it is nothing.

interface ParsedElement {
  ai: string;
  dataTitle: string;
  data: unknown;
  raw: string;
  isoDate: string;
}
type ParseBarcode = (barcode: string) => { codeName: string; parsedCodeItems: ParsedElement[] };

// The package is CommonJS without types: its one export, typed as its README documents it.
const { parseBarcode } = createRequire(import.meta.url)('gs1-barcode-parser-mod') as { parseBarcode: ParseBarcode };

const GS = '\u001d';
/** GS1 General Specifications §7.11, character set 82: what AIs 10 and 21 may hold. */
export const CSET_82 = /^[!"%&'()*+,\-./0-9:;<=>?A-Z_a-z]+$/;
const PRODUCT_AIS = ['01', '10', '11', '17', '21'];

const refuse = (reason: string) => fieldError('barcode', reason);

/** The GS1 mod-10 check digit over all digits but the last (GS1 General Specifications §7.9.1). */
export function gtinCheckDigitOk(gtin: string): boolean {
  if (!/^\d{14}$/.test(gtin)) return false;
  let sum = 0;
  for (let i = 0; i < 13; i++) sum += Number(gtin[i]) * (i % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10 === Number(gtin[13]);
}

/** YYMMDD as GS1 writes it (DD 00: the month's last day); the parser rolls month 13 into next year, so check first. */
const NAMES: Record<string, string> = { '11': 'a production date', '17': 'an expiry date' };

function checkDate(ai: string, raw: string): void {
  const month = Number(raw.slice(2, 4));
  const day = Number(raw.slice(4, 6));
  const days = new Date(Date.UTC(2000 + Number(raw.slice(0, 2)), month, 0)).getUTCDate();
  if (!/^\d{6}$/.test(raw) || month < 1 || month > 12 || day > days) {
    throw refuse(`has ${NAMES[ai]} (AI ${ai}) "${raw}", which is not a date (YYMMDD)`);
  }
}

function checkText(ai: string, raw: string, what: string): void {
  if (raw.length < 1 || raw.length > 20) throw refuse(`has a ${what} (AI ${ai}) of ${raw.length} characters: 1 to 20 are allowed`);
  if (!CSET_82.test(raw)) throw refuse(`has a ${what} (AI ${ai}) with characters GS1 does not allow`);
}

/**
 * Reads a scanned GS1 element string: with or without its symbology identifier (]C1 GS1-128, ]d2 DataMatrix, ]Q3 QR),
 * with group separators (U+001D) between variable-length elements, or in the printed form "(01)…(17)…(10)…".
 * Throws a validation error (422, field `barcode`) naming what is wrong; never a partial reading.
 */
export function readGs1(input: string): VendorBarcode {
  // Wedge scanners often end with a newline or carry spaces around the symbol's text; the separator itself stays.
  const text = input.replace(/^[ \r\n\t]+|[ \r\n\t]+$/g, '');
  if (text.replaceAll(GS, '') === '') throw refuse('is empty: scan the barcode again');
  let parsed: ReturnType<ParseBarcode>;
  try {
    parsed = parseBarcode(text);
  } catch (error) {
    throw refuse(`is not a GS1 element string (${typeof error === 'string' ? error : 'unreadable'})`);
  }
  const elements = parsed.parsedCodeItems;
  if (elements.length === 0) throw refuse('has no GS1 elements');
  const seen = new Map<string, ParsedElement>();
  for (const element of elements) {
    if (seen.has(element.ai) && seen.get(element.ai)!.raw !== element.raw) {
      throw refuse(`has AI ${element.ai} twice with different values`);
    }
    seen.set(element.ai, element);
    if (element.ai === '01' && !gtinCheckDigitOk(element.raw))
      throw refuse(`has a product number (GTIN, AI 01) ${element.raw} with a wrong check digit`);
    if (element.ai === '11' || element.ai === '17') checkDate(element.ai, element.raw);
    if (element.ai === '10') checkText('10', element.raw, 'lot number');
    if (element.ai === '21') checkText('21', element.raw, 'serial number');
  }
  if (!PRODUCT_AIS.some((ai) => seen.has(ai))) {
    throw refuse('has none of product number (AI 01), lot (10), production date (11), expiry (17) or serial (21)');
  }
  return {
    symbology: parsed.codeName || null,
    gtin: seen.get('01')?.raw ?? null,
    lot_number: seen.get('10')?.raw ?? null,
    production_date: seen.get('11')?.isoDate || null,
    expiration_date: seen.get('17')?.isoDate || null,
    serial_number: seen.get('21')?.raw ?? null,
    elements: elements.map((e) => ({ ai: e.ai, title: e.dataTitle, value: e.isoDate || e.raw })),
  };
}
