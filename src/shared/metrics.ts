import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

// One registry per app instance (tests build many apps in one process; a global registry would collide).
export interface Metrics {
  registry: Registry;
  instrument(app: FastifyInstance): void;
  delivery: {
    attempts: Counter<'outcome'>;
    latency: Histogram;
  };
  /** The background rewrite of stored item documents (src/inventory/stored/rebuild.ts): done of total. */
  documents: Gauge<'progress'>;
}

/** What the delivery queue holds: pending deliveries and when the oldest was created. */
export type QueueStats = () => Promise<{ depth: number; oldest: string | null }>;

/**
 * With `queueStats` (the delivery repository's, passed in by the server so that shared/ imports no domain), the
 * queue's depth and oldest pending age are read on each scrape.
 */
export function createMetrics(queueStats?: QueueStats): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const attempts = new Counter({
    name: 'labstock_webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome (success, http_error, timeout, network_error, blocked, redirect)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'labstock_webhook_delivery_latency_seconds',
    help: "From the event's commit to its successful delivery",
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30, 120, 600, 3600],
    registers: [registry],
  });
  if (queueStats) {
    let stats: Promise<{ depth: number; oldest: string | null }> | null = null;
    // One query serves both gauges of a scrape.
    const read = () =>
      (stats ??= queueStats().finally(() =>
        setTimeout(() => {
          stats = null;
        }, 100),
      ));
    new Gauge({
      name: 'labstock_webhook_queue_depth',
      help: 'Deliveries waiting to be attempted',
      registers: [registry],
      async collect() {
        this.set((await read()).depth);
      },
    });
    new Gauge({
      name: 'labstock_webhook_oldest_pending_seconds',
      help: 'Age of the oldest delivery still pending',
      registers: [registry],
      async collect() {
        const { oldest } = await read();
        this.set(oldest ? Math.max(0, (Date.now() - Date.parse(oldest)) / 1000) : 0);
      },
    });
  }
  const documents = new Gauge({
    name: 'labstock_item_documents_rebuild',
    help: 'Stored item documents the background rebuild has written (progress="done") of those it found missing or of another shape when the server started (progress="total")',
    labelNames: ['progress'] as const,
    registers: [registry],
  });
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
    delivery: { attempts, latency },
    documents,
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
