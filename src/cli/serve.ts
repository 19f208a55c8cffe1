import pino from 'pino';
import { alertJob } from '../alerts/job.js';
import { queueStats } from '../delivery/repository.js';
import { createWorker, type Worker } from '../delivery/worker.js';
import { startDocumentRebuild } from '../inventory/stored/rebuild.js';
import { approvalMailJob } from '../order-requests/approval-mail.js';
import { buildApp, loggerOptions } from '../server/app.js';
import { systemActor } from '../shared/actor.js';
import type { Config } from '../shared/config.js';
import { startCheckpointer } from '../shared/db/checkpointer.js';
import type { Db } from '../shared/db/database.js';
import { createMetrics } from '../shared/metrics.js';
import { openContext, reportAndExit, surviveDatabaseFailures } from './context.js';

/** What a dead idle connection logs: its message and code only (the error carries the pg client and its settings). */
const connectionLost = (log: { warn(obj: object, msg: string): void }) => (err: Error) =>
  log.warn(
    { err: { message: err.message, code: (err as { code?: unknown }).code } },
    'an idle database connection was lost; it is replaced on the next query',
  );

/**
 * SIGINT/SIGTERM: stop taking work, finish what is in flight, close the database, exit 0. Closing waits on the
 * database (a pool ends only when PostgreSQL acknowledges each connection), so a stalled server held the process
 * for ever; past SHUTDOWN_TIMEOUT it exits with code 1 instead, saying so (README.md, Configuration).
 */
function onShutdown(stop: (signal: string) => Promise<void>, timeoutMs: number, log: { error(obj: object, msg: string): void }): void {
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) return;
      closing = true;
      setTimeout(() => {
        log.error(
          { signal, timeoutMs },
          'shutdown did not finish within SHUTDOWN_TIMEOUT (is the database answering?); exiting with code 1',
        );
        process.exit(1);
      }, timeoutMs).unref();
      void stop(signal).then(
        () => process.exit(0),
        (err) => reportAndExit(err),
      );
    });
  }
}

/** SQLite: checkpoints in a thread of their own (src/shared/db/checkpointer.ts). */
const checkpointsOf = (config: Config, db: Db, log: Parameters<typeof startCheckpointer>[2]) =>
  config.database.kind === 'sqlite' ? startCheckpointer(db, config.database.file, log) : Promise.resolve(null);

/** `labstock serve`: the HTTP API, and the delivery worker (with reminders and alerts) unless --no-worker. */
export async function serve(options: { worker: boolean }): Promise<void> {
  try {
    let onLost: (err: Error) => void = () => undefined;
    const { config, handle } = await openContext({ onConnectionError: (err) => onLost(err) });
    const metrics = createMetrics(() => queueStats(handle.db));
    const app = await buildApp({
      config,
      db: handle.db,
      metrics,
      logger: loggerOptions(config),
    });
    onLost = connectionLost(app.log);
    surviveDatabaseFailures(app.log);
    const checkpoints = await checkpointsOf(config, handle.db, app.log);
    const documents = startDocumentRebuild(handle.db, systemActor('server'), config.appUrl, app.log, metrics.documents);
    let worker: Worker | null = null;
    if (options.worker) {
      worker = createWorker({
        db: handle.db,
        config,
        log: app.log,
        metrics,
        jobs: [alertJob({ db: handle.db, config, log: app.log }), approvalMailJob({ db: handle.db, config, log: app.log })],
      });
      await worker.start();
    }
    if (config.webhookAllowedCidrs.length > 0)
      app.log.warn({ cidrs: config.webhookAllowedCidrs }, 'WEBHOOK_ALLOWED_CIDRS opens these ranges to webhook deliveries');
    onShutdown(
      async (signal) => {
        app.log.info({ signal }, 'shutting down');
        await app.close();
        await documents.stop();
        await worker?.stop();
        await checkpoints?.close();
        await handle.close();
      },
      config.shutdownTimeoutMs,
      app.log,
    );
    await app.listen({ port: config.port, host: config.host });
    app.log.info(
      { database: handle.kind, appUrl: config.appUrl, worker: options.worker },
      `Labstock listening on http://${config.host}:${config.port} (OpenAPI at /openapi.json, reference at /docs)`,
    );
  } catch (err) {
    reportAndExit(err);
  }
}

/** `labstock worker`: delivery, reminders and alerts, no HTTP (PostgreSQL deployments run any number of these). */
export async function runWorker(): Promise<void> {
  try {
    let onLost: (err: Error) => void = () => undefined;
    const { config, handle } = await openContext({ onConnectionError: (err) => onLost(err) });
    const log = pino({ level: config.logLevel });
    onLost = connectionLost(log);
    surviveDatabaseFailures(log);
    const checkpoints = await checkpointsOf(config, handle.db, log);
    const worker = createWorker({
      db: handle.db,
      config,
      log,
      jobs: [alertJob({ db: handle.db, config, log }), approvalMailJob({ db: handle.db, config, log })],
    });
    await worker.start();
    onShutdown(
      async (signal) => {
        log.info({ signal }, 'stopping: finishing attempts in flight');
        await worker.stop();
        await checkpoints?.close();
        await handle.close();
      },
      config.shutdownTimeoutMs,
      log,
    );
  } catch (err) {
    reportAndExit(err);
  }
}
