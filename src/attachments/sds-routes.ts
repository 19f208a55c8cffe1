import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { itemSafetyDataSheets, markSafetyDataSheet } from './sds.js';
import { MarkSafetyDataSheetBody, SafetyDataSheet } from './sds-schemas.js';

// Safety data sheets (docs/hazards.md) with JSON bodies, in a plugin of their own: src/attachments/routes.ts reads
// raw uploads and takes no JSON.

export const safetyDataSheetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.put(
    '/attachments/:id/safety-data-sheet',
    {
      schema: {
        operationId: 'markSafetyDataSheet',
        tags: ['Attachments'],
        summary: 'Mark a document as the safety data sheet',
        description:
          "A document of an item or a type (not of a container: 422) is its safety data sheet, revised on the date printed on it; null unmarks it. 200 with the sheet and whether it is older than SDS_REVIEW_YEARS (default 5); 204 when unmarked. Who may: as for changing the owner's documents (a type's: its lab's managers and org admins, 403 otherwise); another tenant's: 404.",
        params: Type.Object({ id: Uuid }),
        body: MarkSafetyDataSheetBody,
        response: responses({ 200: ref(SafetyDataSheet), 204: Type.Null() }, [400, 401, 403, 404, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const sheet = await markSafetyDataSheet(app.deps, request.actor, request.params.id, request.body.revised_on);
      return sheet ? sheet : reply.code(204).send();
    },
  );
  app.get(
    '/inventory-items/:id/safety-data-sheets',
    {
      schema: {
        operationId: 'listItemSafetyDataSheets',
        tags: ['Attachments'],
        summary: "List an item's safety data sheets",
        description:
          'The documents marked as the safety data sheet of the item and of its type, newest revision first, each with its review date and whether it is overdue. For anyone who sees the item (404 otherwise).',
        params: Type.Object({ id: Uuid }),
        response: responses({ 200: Type.Array(ref(SafetyDataSheet)) }, [401, 404, 422]),
      },
    },
    async (request) => itemSafetyDataSheets(app.deps, request.actor, request.params.id),
  );
};
