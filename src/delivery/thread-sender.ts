import type { Worker as Thread } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { Config } from '../shared/config.js';
import { startThread } from '../shared/threads/start.js';
import type { OutgoingMessage, Sender, SendResult } from './sender.js';

export type ThreadSettings = Pick<Config, 'webhookTimeoutMs' | 'webhookAllowedCidrs'> & {
  /** The thread adds its timestamps to each result (WEBHOOK_TRACE: trace.ts). */
  trace?: boolean;
};
export type ToThread =
  | { op: 'send'; sends: { id: number; message: OutgoingMessage }[] }
  | { op: 'handshake'; id: number; url: string; origin: string }
  | { op: 'close' };
export type FromThread =
  | { op: 'ready' }
  | { op: 'result'; id: number; result: SendResult | { ok: boolean; detail: string } }
  | { op: 'results'; results: { id: number; result: SendResult }[] }
  | { op: 'failed'; id: number; error: string }
  | { op: 'closed' };

/** What a failure says, without URLs or signing keys (a webhook's URL may carry credentials). */
export function describeError(err: unknown): string {
  const e = err as { name?: string; message?: string } | null;
  const message = String(e?.message ?? err)
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '[url]')
    .replace(/whsec_\S+/g, 'whsec_[redacted]');
  return `${e?.name ?? 'Error'}: ${message}`;
}

export interface ThreadSender extends Sender {
  /** Starts the thread; rejects when it cannot start (the worker's start fails with it, loudly). */
  start(): Promise<void>;
  /** Ends the thread at once, as a crash would: what it had in flight fails, and a new thread takes over. */
  kill(): Promise<void>;
}

/** A thread that dies again within this long of its start is restarted after a growing pause. */
const CRASH_WINDOW_MS = 10_000;
const MAX_PAUSE_MS = 30_000;
/** How long close() lets the thread end by itself before terminating it. */
const CLOSE_GRACE_MS = 5_000;

type Waiter = { resolve: (v: never) => void; reject: (err: Error) => void };

/**
 * The sender (sender.ts) in a worker thread: the main thread claims and records (worker.ts, recorder.ts), the thread
 * only signs and sends, so a delivery's HTTP exchange no longer waits behind the API's requests on the main event
 * loop. A send whose thread dies rejects: the worker logs it and the delivery, still leased and unrecorded, is sent
 * again after its lease (docs/decisions/0011-leases-and-at-least-once.md). A dead thread is replaced at once, or
 * after a pause that grows while it keeps dying young; meanwhile sends fail the same way.
 */
export function createThreadSender(settings: ThreadSettings, log: Pick<Logger, 'error' | 'warn'>): ThreadSender {
  let thread: Thread | null = null;
  let pending = new Map<number, Waiter>();
  let nextId = 1;
  let closing = false;
  let everReady = false;
  let quickDeaths = 0;
  let restartTimer: NodeJS.Timeout | null = null;
  let exited: Promise<void> = Promise.resolve();

  function spawn(): Promise<void> {
    const t = startThread(import.meta.url, 'send-thread', { ...settings });
    const mine = new Map<number, Waiter>();
    const startedAt = Date.now();
    thread = t;
    pending = mine;
    let markReady: () => void = () => undefined;
    let failStart: (err: Error) => void = () => undefined;
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      failStart = reject;
    });
    let closed: () => void = () => undefined;
    exited = new Promise<void>((r) => {
      closed = r;
    });
    t.on('message', (msg: FromThread) => {
      if (msg.op === 'ready') {
        everReady = true;
        markReady();
      } else if (msg.op === 'results') {
        for (const { id, result } of msg.results) {
          const w = mine.get(id);
          if (!w) continue;
          mine.delete(id);
          w.resolve(result as never);
        }
      } else if (msg.op === 'result' || msg.op === 'failed') {
        const w = mine.get(msg.id);
        if (!w) return;
        mine.delete(msg.id);
        if (msg.op === 'result') w.resolve(msg.result as never);
        else w.reject(new Error(`delivery thread: ${msg.error}`));
      }
    });
    t.on('error', (err) => log.error({ err: { message: describeError(err) } }, 'the delivery thread failed'));
    t.on('exit', (code) => {
      closed();
      if (thread === t) thread = null;
      const lost = [...mine.values()];
      mine.clear();
      for (const w of lost) w.reject(new Error(`the delivery thread exited (code ${code}) before answering`));
      failStart(new Error(`the delivery thread exited (code ${code}) before it was ready`));
      // The first thread never came up: start() fails, and with it the worker's start (nothing to restart).
      if (closing || !everReady) return;
      log.error({ code, inFlight: lost.length }, 'the delivery thread exited; its deliveries are sent again after their lease');
      quickDeaths = Date.now() - startedAt < CRASH_WINDOW_MS ? quickDeaths + 1 : 0;
      // The first replacement at once (what is sent meanwhile waits in its queue), later ones after a pause.
      if (quickDeaths <= 1) return respawn();
      restartTimer = setTimeout(
        () => {
          restartTimer = null;
          if (!closing) respawn();
        },
        Math.min(MAX_PAUSE_MS, 250 * 2 ** (quickDeaths - 2)),
      );
    });
    return ready;
  }

  function respawn(): void {
    spawn().catch((err: unknown) => log.error({ err: { message: describeError(err) } }, 'the delivery thread did not start'));
  }

  /**
   * Sends started in the same turn (a claimed batch: worker.ts) go to the thread in one message, and their results
   * come back a turn's worth at a time (send-thread.ts): a message costs the main thread more than signing does.
   */
  let batch: { id: number; message: OutgoingMessage }[] = [];
  function post(): void {
    const sends = batch;
    batch = [];
    const t = thread;
    if (!t) {
      for (const { id } of sends) {
        const w = pending.get(id);
        pending.delete(id);
        w?.reject(new Error(closing ? 'the delivery thread is closed' : 'the delivery thread is restarting'));
      }
      return;
    }
    t.postMessage({ op: 'send', sends } satisfies ToThread);
  }
  function send(message: OutgoingMessage): Promise<SendResult> {
    if (!thread) return Promise.reject(new Error(closing ? 'the delivery thread is closed' : 'the delivery thread is restarting'));
    const id = nextId++;
    const waiters = pending;
    return new Promise<SendResult>((resolve, reject) => {
      waiters.set(id, { resolve: resolve as (v: never) => void, reject });
      if (batch.length === 0) queueMicrotask(post);
      batch.push({ id, message });
    });
  }

  function call<T>(msg: ToThread & { id: number }): Promise<T> {
    const t = thread;
    if (!t) return Promise.reject(new Error(closing ? 'the delivery thread is closed' : 'the delivery thread is restarting'));
    const waiters = pending;
    return new Promise<T>((resolve, reject) => {
      waiters.set(msg.id, { resolve: resolve as (v: never) => void, reject });
      t.postMessage(msg);
    });
  }

  return {
    start: () => spawn(),
    send,
    handshake: (url, origin) => call<{ ok: boolean; detail: string }>({ op: 'handshake', id: nextId++, url, origin }),
    async kill() {
      const t = thread;
      if (!t) return;
      const gone = exited;
      await t.terminate();
      await gone;
    },
    async close() {
      closing = true;
      if (restartTimer) clearTimeout(restartTimer);
      const t = thread;
      if (!t) return;
      const gone = exited;
      t.postMessage({ op: 'close' } satisfies ToThread);
      const timer = setTimeout(() => void t.terminate(), CLOSE_GRACE_MS);
      await gone;
      clearTimeout(timer);
    },
  };
}
