import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { emptyBodyIsEmptyObject } from '../shared/empty-body.js';
import { ref, responses, Uuid } from '../shared/schemas.js';
import { LabMigration, MigrationBody } from './schemas.js';
import { createMigrationRunner, getMigrationProgress, requestMigration } from './service.js';

export const labMigrationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Migrations started over HTTP run in the background of this process, batch after batch; closing the app lets
  // the batch in flight commit and leaves the rest for a re-POST or the CLI.
  const runner = createMigrationRunner(app.deps, app.log);
  app.addHook('onClose', () => runner.stop());

  app.post(
    '/labs/:id/migrate-to-instances',
    {
      // No body is needed; one that is sent must be an empty object (unknown fields are 422, as everywhere).
      preValidation: emptyBodyIsEmptyObject,
      schema: {
        operationId: 'migrateLabToInstances',
        tags: ['Labs'],
        summary: 'Migrate a legacy lab to instances',
        description:
          "Org admins only. Permanent and idempotent: each item's quantity, lot, expiry and location/sublocation become one instance " +
          "(location and sublocation a two-level path in the lab's location tree) and each changed item emits inventory-item.updated. " +
          'Runs in batches in the background: 202 with the progress while it runs (POST again to resume a migration that stopped), ' +
          "200 once the lab uses instances. Meanwhile the lab's inventory is read-only (writes 409 lab_migrating); reads keep working.",
        params: Type.Object({ id: Uuid }),
        body: MigrationBody,
        response: responses({ 200: ref(LabMigration), 202: ref(LabMigration) }, [400, 401, 403, 404, 413, 415, 422]),
      },
    },
    async (request, reply) => {
      const progress = await requestMigration(app.deps.db, request.actor, request.params.id);
      if (progress.status === 'done') return reply.code(200).send(progress);
      runner.kick(progress.lab_id);
      return reply.code(202).header('Location', `/labs/${progress.lab_id}/migration`).send(progress);
    },
  );

  app.get(
    '/labs/:id/migration',
    {
      schema: {
        operationId: 'getLabMigration',
        tags: ['Labs'],
        summary: "Progress of a lab's migration to instances",
        description: 'For anyone who sees the lab.',
        params: Type.Object({ id: Uuid }),
        response: responses({ 200: ref(LabMigration) }, [401, 404, 422]),
      },
    },
    async (request) => getMigrationProgress(app.deps.db, request.actor, request.params.id),
  );
};
