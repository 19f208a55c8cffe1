import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { getSafetySettings, updateSafetySettings } from './settings.js';
import { LabSafetySettings, UpdateLabSafetySettingsBody } from './settings-schemas.js';

// A lab's safety settings (docs/safety.md): read by anyone who sees the lab, set by org admins and lab managers.

export const safetySettingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.deps;

  app.get(
    '/labs/:id/safety-settings',
    {
      schema: {
        operationId: 'getLabSafetySettings',
        tags: ['Safety'],
        summary: "Get a lab's safety settings",
        description: 'Whether segregation conflicts and control-area limits warn (default) or block. Anyone who sees the lab.',
        params: Type.Object({ id: Uuid }),
        response: responses({ 200: ref(LabSafetySettings) }, [401, 404, 422]),
      },
    },
    async (request) => getSafetySettings(db, request.actor, request.params.id),
  );

  app.put(
    '/labs/:id/safety-settings',
    {
      schema: {
        operationId: 'updateLabSafetySettings',
        tags: ['Safety'],
        summary: "Set a lab's safety settings",
        description: "warn or block, for segregation and for control-area limits. Org admins and the lab's managers (403 otherwise).",
        params: Type.Object({ id: Uuid }),
        body: UpdateLabSafetySettingsBody,
        response: responses({ 200: ref(LabSafetySettings) }, [400, 401, 403, 404, 413, 415, 422]),
      },
    },
    async (request) => updateSafetySettings(db, request.actor, request.params.id, request.body),
  );
};
