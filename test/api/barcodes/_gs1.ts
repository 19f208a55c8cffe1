import type { Harness } from '../../helpers/harness.js';

export const GS = '\u001d';

/** POST /barcodes/gs1 with the scanned text. */
export const readGs1 = (h: Harness, token: string | null, barcode: unknown) =>
  h.call(token, { method: 'POST', url: '/barcodes/gs1', payload: { barcode } });
