import { type Static, Type } from 'typebox';
import { NDate, NString } from '../shared/schemas.js';

// Vendor barcodes (docs/product.md §14, docs/scanning.md): an addition on its own endpoint, reading only.

export const Gs1Body = Type.Object(
  {
    barcode: Type.String({
      minLength: 1,
      maxLength: 512,
      description:
        'The text a scanner or camera read from a GS1-128 or GS1 DataMatrix: with or without its symbology identifier (`]C1`, `]d2`, `]Q3`), group separators (U+001D) between variable-length elements, or the printed form `(01)…(17)…(10)…`.',
    }),
  },
  { additionalProperties: false, examples: [{ barcode: ']d201095060001343521727123110SLCD1234\u001d21S0042' }] },
);
export type Gs1Body = Static<typeof Gs1Body>;

export const VendorBarcode = Type.Object(
  {
    symbology: { ...NString, description: 'What the symbology identifier says ("GS1-128", "GS1 DataMatrix", …); null without one.' },
    gtin: { ...NString, description: 'AI 01, 14 digits with a valid check digit.' },
    lot_number: { ...NString, description: 'AI 10.' },
    production_date: { ...NDate, description: 'AI 11.' },
    expiration_date: { ...NDate, description: 'AI 17 (DD 00 is the last day of the month).' },
    serial_number: { ...NString, description: 'AI 21.' },
    elements: Type.Array(
      Type.Object(
        {
          ai: Type.String({ description: 'The application identifier.' }),
          title: Type.String({ description: "GS1's short title for it." }),
          value: Type.String({ description: 'As scanned; a date as YYYY-MM-DD.' }),
        },
        { additionalProperties: false },
      ),
      { description: 'Every element, in the order scanned, including AIs Labstock does not use.' },
    ),
  },
  {
    $id: 'VendorBarcode',
    title: 'VendorBarcode',
    additionalProperties: false,
    examples: [
      {
        symbology: 'GS1 DataMatrix',
        gtin: '09506000134352',
        lot_number: 'SLCD1234',
        production_date: null,
        expiration_date: '2027-12-31',
        serial_number: 'S0042',
        elements: [
          { ai: '01', title: 'GTIN', value: '09506000134352' },
          { ai: '17', title: 'USE BY OR EXPIRY', value: '2027-12-31' },
          { ai: '10', title: 'BATCH/LOT', value: 'SLCD1234' },
          { ai: '21', title: 'SERIAL', value: 'S0042' },
        ],
      },
    ],
  },
);
export type VendorBarcode = Static<typeof VendorBarcode>;
