import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ref } from '../shared/schemas.js';
import { selectOne } from './repository.js';
import { Health } from './schemas.js';

/**
 * The check answers within this budget either way: a stalled database (no answer, no error) is unreachable too,
 * and a load balancer probing /healthz must not wait out the connect or statement timeouts.
 */
export const HEALTH_DEADLINE_MS = 900;

/** `select 1` answered within the deadline; a failure or a late answer is false (and never an unhandled rejection). */
async function databaseAnswers(run: () => Promise<unknown>, onError: (err: unknown) => void): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), HEALTH_DEADLINE_MS);
  });
  const answered = run().then(
    () => true,
    (err: unknown) => {
      onError(err);
      return false;
    },
  );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/healthz',
    {
      config: { public: true },
      schema: {
        operationId: 'getHealth',
        tags: ['Health'],
        summary: 'Check service health',
        security: [],
        response: { 200: ref(Health), 503: ref(Health) },
      },
    },
    async (_request, reply) => {
      const ok = await databaseAnswers(
        () => selectOne(app.deps.db),
        (err) =>
          app.log.warn(
            { err: { message: (err as Error)?.message, code: (err as { code?: unknown })?.code } },
            'health check: database unreachable',
          ),
      );
      if (ok) return { status: 'ok', database: 'ok' };
      return reply.code(503).send({ status: 'unavailable', database: 'unreachable' });
    },
  );
};
