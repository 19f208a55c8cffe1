import type { components } from '@labstock/client';
import { api, LabstockError, unwrap } from '../api';
import type { LabelCode } from '../data/labels';

// A manufacturer's barcode scanned on the scan page (docs/scanning.md "Identifiers"): the containers received with
// it, found by the GTIN and serial (or GTIN and lot) stored at receiving. The first active one opens as its label
// would; the others are listed as links.

export type FoundContainer = components['schemas']['BarcodeMatches']['containers'][number];

export type VendorFind =
  | { kind: 'open'; code: LabelCode; others: FoundContainer[] }
  | { kind: 'none' }
  /** A barcode with neither a serial nor a GTIN and lot: it names no container. */
  | { kind: 'unusable' };

export async function findByVendorBarcode(barcode: string): Promise<VendorFind> {
  let containers: FoundContainer[];
  try {
    containers = (await unwrap(api.POST('/barcodes/gs1/containers', { body: { barcode } }))).containers;
  } catch (error) {
    if (error instanceof LabstockError && error.code === 'validation_failed') return { kind: 'unusable' };
    throw error;
  }
  const first = containers[0];
  if (!first) return { kind: 'none' };
  const codes = await unwrap(api.GET('/codes', { params: { query: { instance_id: first.instance_id } } }));
  const code = codes[0];
  if (!code) return { kind: 'none' };
  return { kind: 'open', code, others: containers.slice(1) };
}
