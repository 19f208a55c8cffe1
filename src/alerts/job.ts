import type { WorkerJob } from '../delivery/jobs.js';
import type { Config } from '../shared/config.js';
import type { Db } from '../shared/db/database.js';
import { createMailer } from '../shared/mail.js';
import { sendDigests } from './digest.js';
import * as repo from './repository.js';
import { scanAlerts } from './scan.js';

// Reminders and alerts as a job of the worker (src/delivery/worker.ts runs it at start and every
// ALERT_SCAN_INTERVAL): the scan, then the digests that are due, then pruning of what is long cleared.

export interface AlertJobDeps {
  db: Db;
  config: Config;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; debug(obj: object, msg: string): void };
}

export function alertJob(deps: AlertJobDeps): WorkerJob {
  const { db, config, log } = deps;
  const mailer = createMailer(config.mail, log);
  let toldMailOff = false;
  return {
    name: 'alerts',
    intervalMs: config.alertScanIntervalMs,
    async run() {
      const now = new Date();
      const { fired, cleared } = await scanAlerts({ db, config }, now);
      if (fired + cleared > 0) log.info({ fired, cleared }, 'reminders and alerts scanned');
      if (mailer.enabled) {
        const sent = await sendDigests({ db, appUrl: config.appUrl, mailer, log }, now);
        if (sent > 0) log.info({ sent }, 'reminder digests sent');
      } else if (!toldMailOff) {
        toldMailOff = true;
        log.info({}, 'email is off (SMTP_URL is not set): reminder digests are not sent, alerts still go to webhooks');
      }
      await repo.prune(db, new Date(now.getTime() - config.webhookRetentionMs).toISOString());
    },
    close() {
      mailer.close();
    },
  };
}
