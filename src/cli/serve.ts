import { buildApp } from '../shared/app.js';
import { createMetrics } from '../shared/metrics.js';
import { openContext, reportAndExit } from './context.js';

export async function serve(): Promise<void> {
  try {
    const { config, handle } = await openContext();
    const app = await buildApp({
      config, db: handle.db, dbKind: handle.kind, metrics: createMetrics(),
      logger: { level: config.logLevel, redact: ['req.headers["access-token"]', 'req.headers.authorization'] },
    });
    let closing = false;
    const shutdown = async (signal: string) => {
      if (closing) return;
      closing = true;
      app.log.info({ signal }, 'shutting down');
      await app.close();
      await handle.close();
      process.exit(0);
    };
    process.on('SIGINT', () => void shutdown('SIGINT'));
    process.on('SIGTERM', () => void shutdown('SIGTERM'));
    await app.listen({ port: config.port, host: config.host });
    app.log.info({ database: handle.kind, appUrl: config.appUrl }, `Labstock listening on http://${config.host}:${config.port} (OpenAPI at /openapi.json, reference at /docs)`);
  } catch (err) {
    reportAndExit(err);
  }
}
