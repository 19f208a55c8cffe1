import type { Logger } from 'pino';
import type { Config } from '../shared/config.js';
import type { Db } from '../shared/db/database.js';
import type { Sender } from './sender.js';
import { anyHandshakePending, pendingHandshakes, recordHandshake } from './webhook-repository.js';

/** How often the worker looks for webhooks waiting for their handshake, at most. */
const VERIFY_CHECK_MS = 200;
/** Handshakes run at once, at most. */
const BATCH = 20;

export interface HandshakeDeps {
  db: Db;
  config: Pick<Config, 'eventSource'>;
  log: Pick<Logger, 'info' | 'warn'>;
  sender: Pick<Sender, 'handshake'>;
}

export interface Handshakes {
  /** Starts the handshakes of webhooks waiting for one, unless a round is running or ran moments ago. */
  check(): void;
  /** The round running now, if any. */
  running(): Promise<void> | null;
  /** Whether a webhook waits for its handshake; if one does, the next check() looks at once. */
  pending(): Promise<boolean>;
}

/** Validation handshakes run beside delivery, never in its way: a slow URL cannot stall the queue. */
export function createHandshakes(deps: HandshakeDeps): Handshakes {
  const { db, config, log, sender } = deps;
  let verifying: Promise<void> | null = null;
  let lastVerifyCheck = 0;

  return {
    check() {
      if (verifying || Date.now() - lastVerifyCheck < VERIFY_CHECK_MS) return;
      lastVerifyCheck = Date.now();
      verifying = (async () => {
        const hooks = await pendingHandshakes(db, BATCH);
        await Promise.all(
          hooks.map(async (hook) => {
            const result = await sender.handshake(hook.url, config.eventSource);
            await recordHandshake(db, hook.id, hook.url, result.ok);
            log.info({ webhook: hook.id, verified: result.ok, detail: result.detail }, 'webhook validation handshake');
          }),
        );
      })()
        .catch((err) => log.warn({ err }, 'validation handshake check failed; retrying later'))
        .finally(() => {
          verifying = null;
        });
    },
    running: () => verifying,
    async pending() {
      const unverified = await anyHandshakePending(db);
      if (unverified) lastVerifyCheck = 0;
      return unverified;
    },
  };
}
