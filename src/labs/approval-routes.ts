import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { LabApprovalSettings, UpdateLabApprovalSettingsBody } from './approval-schemas.js';
import { getApprovalSettings, updateApprovalSettings } from './approval-settings.js';

// A lab's approval rule (docs/ordering.md): read by anyone who sees the lab, set by org admins and lab managers.

export const labApprovalRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/labs/:id/approval-settings',
    {
      schema: {
        operationId: 'getLabApprovalSettings',
        tags: ['Labs'],
        summary: "Get a lab's approval rule",
        description: "The rule (none, all, above a threshold) and the caller's role in the lab. Anyone who sees the lab.",
        params: Type.Object({ id: Uuid }),
        response: responses({ 200: ref(LabApprovalSettings) }, [401, 404, 422]),
      },
    },
    async (request) => getApprovalSettings(db, request.actor, request.params.id),
  );

  app.put(
    '/labs/:id/approval-settings',
    {
      schema: {
        operationId: 'updateLabApprovalSettings',
        tags: ['Labs'],
        summary: "Set a lab's approval rule",
        description:
          "none: requests need no approval (as without a rule); all: every request must be APPROVED before it is ORDERED; above: those whose total price is above `threshold` (in another currency: always). Org admins and the lab's managers (403 otherwise).",
        params: Type.Object({ id: Uuid }),
        body: UpdateLabApprovalSettingsBody,
        response: responses({ 200: ref(LabApprovalSettings) }, [400, 401, 403, 404, 413, 415, 422]),
      },
    },
    async (request) => updateApprovalSettings(db, request.actor, request.params.id, request.body),
  );
};
