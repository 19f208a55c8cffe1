import { createWriteStream, type WriteStream } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

// Timestamps at each step of one delivery, written as JSON lines to the file WEBHOOK_TRACE names (off by default:
// the worker then holds no tracer at all). docs/performance.md ("Delivery under writes") says what they showed;
// bench/trace-summary.mjs turns a file into the table there.

/** Wall-clock milliseconds with sub-millisecond precision, comparable between the main thread and the send thread. */
export const wallNow = (): number => performance.timeOrigin + performance.now();

/** The steps of one attempt, each a wallNow() (the send thread's three come back with its result). */
export interface TraceSteps {
  /** The last in-process commit signal before the claim that took it (0: the claim was not kicked). */
  kick?: number;
  claimStart?: number;
  claimEnd?: number;
  loaded?: number;
  posted?: number;
  threadReceived?: number;
  requested?: number;
  answered?: number;
  back?: number;
  recorded?: number;
  /** Deliveries the claim took, and attempts the recording transaction held. */
  claimBatch?: number;
  recordBatch?: number;
}

/** What the send thread measured of one exchange. */
export interface ThreadTimes {
  received: number;
  requested: number;
  answered: number;
}

export interface Tracer {
  /** Notes a step of a claimed delivery. */
  step(deliveryId: string, steps: TraceSteps): void;
  /** The delivery's attempt is over (recorded, or nothing was sent): its line is written. */
  end(deliveryId: string, eventId: string, eventTime: string, steps?: TraceSteps): void;
  /** A commit signal reached the worker. */
  kicked(): void;
  lastKick(): number;
  close(): Promise<void>;
}

/** Null when `path` is: the worker then skips every step at the cost of one optional call. */
export function createTracer(path: string | null): Tracer | null {
  if (!path) return null;
  const out: WriteStream = createWriteStream(path, { flags: 'a' });
  const open = new Map<string, TraceSteps>();
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  let lastKick = 0;
  let lines: string[] = [];
  const elu0 = { value: performance.eventLoopUtilization() };
  // Once a second: the main thread's event loop (utilization and delay), which decides when a claim or a result's
  // turn comes while the API is busy.
  const timer = setInterval(() => {
    const elu = performance.eventLoopUtilization(elu0.value);
    elu0.value = performance.eventLoopUtilization();
    lines.push(
      JSON.stringify({
        loop: wallNow(),
        utilization: +elu.utilization.toFixed(3),
        delayP50: +(loop.percentile(50) / 1e6).toFixed(2),
        delayP99: +(loop.percentile(99) / 1e6).toFixed(2),
        delayMax: +(loop.max / 1e6).toFixed(2),
      }),
    );
    loop.reset();
    flush();
  }, 1000);
  timer.unref();

  function flush(): void {
    if (lines.length === 0) return;
    out.write(`${lines.join('\n')}\n`);
    lines = [];
  }

  return {
    step(id, steps) {
      const known = open.get(id);
      if (known) Object.assign(known, steps);
      else open.set(id, { ...steps });
    },
    end(id, eventId, eventTime, steps) {
      const s = { ...open.get(id), ...steps };
      open.delete(id);
      lines.push(JSON.stringify({ delivery: id, event: eventId, committed: Date.parse(eventTime), ...s }));
      if (lines.length >= 500) flush();
    },
    kicked() {
      lastKick = wallNow();
    },
    lastKick: () => lastKick,
    async close() {
      clearInterval(timer);
      loop.disable();
      flush();
      await new Promise<void>((resolve) => out.end(resolve));
    },
  };
}
