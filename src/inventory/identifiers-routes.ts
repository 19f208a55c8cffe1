import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ref, responses } from '../shared/schemas.js';
import { findByBarcode, getIdentifiers, listItemIdentifiers, putInstanceIdentifiers } from './identifiers.js';
import {
  BarcodeMatches,
  FindByBarcodeBody,
  IdentifierParams,
  IdentifiersBody,
  InstanceIdentifiers,
  InstanceIdentifiersList,
  ItemIdParams,
} from './identifiers-schemas.js';

// A container's GTIN and serial (docs/scanning.md "Identifiers"): additions on their own endpoints; the contract's
// instance and item are unchanged.
export const identifierRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const path = '/inventory-items/:itemId/instances/:itemInstanceId/identifiers';
  app.get(
    path,
    {
      schema: {
        operationId: 'getInstanceIdentifiers',
        tags: ['Inventory items'],
        summary: "A container's GTIN and serial number",
        description: 'Both null when none were recorded. Archived instances keep theirs.',
        params: IdentifierParams,
        response: responses({ 200: ref(InstanceIdentifiers) }, [401, 404]),
      },
    },
    async (request) => getIdentifiers(app.deps, request.actor, request.params.itemId, request.params.itemInstanceId),
  );

  app.put(
    path,
    {
      schema: {
        operationId: 'setInstanceIdentifiers',
        tags: ['Inventory items'],
        summary: "Set a container's GTIN and serial number",
        description:
          'Replaces both (null: none). An active instance only. A GTIN-8, -12 or -13 is stored as 14 digits; a wrong check digit or a serial outside GS1 AI 21 is 422. Not part of the item: no new version, no event.',
        params: IdentifierParams,
        body: IdentifiersBody,
        response: responses({ 200: ref(InstanceIdentifiers) }, [400, 401, 404, 409, 413, 415, 422]),
      },
    },
    async (request) => putInstanceIdentifiers(app.deps, request.actor, request.params.itemId, request.params.itemInstanceId, request.body),
  );

  app.get(
    '/inventory-items/:id/identifiers',
    {
      schema: {
        operationId: 'listItemIdentifiers',
        tags: ['Inventory items'],
        summary: "The GTINs and serial numbers of an item's containers",
        description: 'One entry per instance (archived ones too) that has a GTIN or a serial, oldest instance first.',
        params: ItemIdParams,
        response: responses({ 200: InstanceIdentifiersList }, [401, 404]),
      },
    },
    async (request) => listItemIdentifiers(app.deps, request.actor, request.params.id),
  );

  app.post(
    '/barcodes/gs1/containers',
    {
      schema: {
        operationId: 'findContainersByVendorBarcode',
        tags: ['Inventory items'],
        summary: "Find the containers a vendor's GS1 barcode names",
        description:
          'Reads the barcode as POST /barcodes/gs1 does and finds containers, in the labs the caller sees, by the identifiers stored at receiving: with a serial (AI 21), GTIN and serial (the serial alone when the barcode has no GTIN); without one, GTIN and lot (AI 10). Changes nothing. A barcode with neither is 422.',
        body: FindByBarcodeBody,
        response: responses({ 200: ref(BarcodeMatches) }, [400, 401, 413, 415, 422]),
      },
    },
    async (request) => findByBarcode(app.deps, request.actor, request.body.barcode),
  );
};
