import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ref, responses } from '../shared/schemas.js';
import { readGs1 } from './gs1.js';
import { Gs1Body, VendorBarcode } from './gs1-schemas.js';
import { identifierRoutes } from './identifiers-routes.js';

// Vendor barcodes at receiving (docs/scanning.md): reads a scan and stores nothing, so it needs no Idempotency-Key;
// the web app fills the receiving form from the answer and the person saves the form as usual.
export const gs1Routes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/barcodes/gs1',
    {
      schema: {
        operationId: 'readVendorBarcode',
        tags: ['Inventory items'],
        summary: "Read a vendor's GS1 barcode",
        description:
          'Splits a scanned GS1-128 or GS1 DataMatrix element string into GTIN (AI 01), lot (10), production date (11), expiry (17) and serial (21), for filling a receiving form. Stores nothing. Input that is not a valid GS1 element string (unknown AI, a truncated element, a wrong GTIN check digit, an impossible date, a lot over 20 characters, none of those AIs) is 422 with the reason; never a partial reading.',
        body: Gs1Body,
        response: responses({ 200: ref(VendorBarcode) }, [400, 401, 413, 415, 422]),
      },
    },
    async (request) => readGs1(request.body.barcode),
  );
  // What receiving stored from such a barcode, and finding containers by it again.
  await app.register(identifierRoutes);
};
