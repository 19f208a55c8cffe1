import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

// One registry per app instance (tests build many apps in one process; a global registry would collide).
export interface Metrics {
  registry: Registry;
  instrument(app: FastifyInstance): void;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'labstock_http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'labstock_http_request_duration_seconds',
    help: 'HTTP request latency by route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  return {
    registry,
    instrument(app) {
      app.addHook('onResponse', async (request, reply) => {
        // The route template, never the raw URL, so ids do not explode label cardinality.
        const route = request.routeOptions.url ?? 'unmatched';
        requests.inc({ method: request.method, route, status: String(reply.statusCode) });
        duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
      });
      app.get('/metrics', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
        reply.type(registry.contentType);
        return registry.metrics();
      });
    },
  };
}
