import { type Static, Type } from 'typebox';
import { DateTime, NDate, NString, ref, Uuid } from '../shared/schemas.js';
import { Gs1Body, VendorBarcode } from './gs1-schemas.js';

// A container's GTIN and serial number (docs/scanning.md "Identifiers"): an addition of the application API on its
// own endpoints, never a field of the contract's instance or item.

const GTIN_RULE = 'GS1 AI 01: 8, 12, 13 or 14 digits with a valid check digit; stored as 14 digits.';
const SERIAL_RULE = "GS1 AI 21: 1 to 20 characters of GS1's character set 82.";

/** What receiving may carry from a vendor's barcode (POST …/instances, …/put-away, POST /order-requests/{id}/receive). */
export const ReceivedIdentifiers = Type.Object(
  {
    gtin: Type.Optional({ ...NString, description: GTIN_RULE }),
    serial_number: Type.Optional({ ...NString, description: SERIAL_RULE }),
  },
  {
    additionalProperties: false,
    description:
      "The GTIN and serial read from the manufacturer's barcode (POST /barcodes/gs1), stored with the container in the same submission (GET …/identifiers).",
  },
);
export type ReceivedIdentifiers = Static<typeof ReceivedIdentifiers>;

export const IdentifiersBody = Type.Object(
  {
    gtin: { ...NString, description: `${GTIN_RULE} null: none.` },
    serial_number: { ...NString, description: `${SERIAL_RULE} null: none.` },
  },
  { additionalProperties: false, examples: [{ gtin: '09506000134352', serial_number: 'S0042' }] },
);
export type IdentifiersBody = Static<typeof IdentifiersBody>;

export const InstanceIdentifiers = Type.Object(
  {
    instance_id: Uuid,
    item_id: Uuid,
    gtin: { ...NString, description: 'GS1 AI 01, 14 digits; null: none recorded.' },
    serial_number: { ...NString, description: 'GS1 AI 21; null: none recorded.' },
    updated_at: { ...Type.Union([DateTime, Type.Null()]), description: 'When they were last set; null: never.' },
  },
  {
    $id: 'InstanceIdentifiers',
    title: 'InstanceIdentifiers',
    additionalProperties: false,
    examples: [
      {
        instance_id: '0b5c3f0e-4c1f-4a53-9a51-2c1c9e3b7a10',
        item_id: '7d0c2a55-8a3e-4c8e-9a0e-5b1f1f1f2a01',
        gtin: '09506000134352',
        serial_number: 'S0042',
        updated_at: '2026-11-27T10:00:00.000Z',
      },
    ],
  },
);
export type InstanceIdentifiers = Static<typeof InstanceIdentifiers>;

export const InstanceIdentifiersList = Type.Array(ref(InstanceIdentifiers));

export const FoundContainer = Type.Object(
  {
    instance_id: Uuid,
    item_id: Uuid,
    item_name: Type.String(),
    lab: Type.Object({ id: Uuid, name: Type.String() }, { additionalProperties: false }),
    lot_number: NString,
    expiration_date: NDate,
    quantity: Type.String(),
    archived: Type.Boolean(),
    gtin: NString,
    serial_number: NString,
    app_path: Type.String({ description: "The container's place in the web application." }),
  },
  { additionalProperties: false },
);

export const BarcodeMatches = Type.Object(
  {
    reading: ref(VendorBarcode),
    matched_by: Type.Union([Type.Literal('gtin_and_serial'), Type.Literal('serial'), Type.Literal('gtin_and_lot')], {
      description: 'The rule used: with a serial, GTIN and serial (serial alone when the barcode has no GTIN); without one, GTIN and lot.',
    }),
    containers: Type.Array(FoundContainer, { description: 'Active containers first, then archived ones; at most 20.' }),
  },
  { $id: 'BarcodeMatches', title: 'BarcodeMatches', additionalProperties: false },
);
export type BarcodeMatches = Static<typeof BarcodeMatches>;

export const FindByBarcodeBody = Gs1Body;
export const IdentifierParams = Type.Object({ itemId: Uuid, itemInstanceId: Uuid });
export const ItemIdParams = Type.Object({ id: Uuid });
