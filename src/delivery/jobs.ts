// Periodic jobs of the worker beside delivery (reminders and alerts: src/alerts/job.ts). The worker does not know
// what they do; whoever starts it (src/cli/serve.ts) hands them in.

/** Work the worker runs once at start and then every `intervalMs`, one run at a time, beside the claim loop. */
export interface WorkerJob {
  readonly name: string;
  readonly intervalMs: number;
  run(): Promise<void>;
  close?(): void;
}

/** Each job on its own timer: a run that takes longer than the interval delays the next one, never overlaps it. */
export function createJobs(list: WorkerJob[], log: { error(obj: object, msg: string): void }, isRunning: () => boolean) {
  const timers = new Map<WorkerJob, NodeJS.Timeout>();
  const current = new Map<WorkerJob, Promise<void>>();

  function runOne(job: WorkerJob): Promise<void> {
    const previous = current.get(job) ?? Promise.resolve();
    const next = previous.then(async () => {
      try {
        await job.run();
      } catch (err) {
        log.error({ err, job: job.name }, 'a worker job failed; it runs again at its next interval');
      }
    });
    current.set(job, next);
    void next.then(() => {
      if (current.get(job) === next) current.delete(job);
    });
    return next;
  }

  function schedule(job: WorkerJob): void {
    if (!isRunning()) return;
    const timer = setTimeout(() => {
      if (current.has(job)) return schedule(job);
      void runOne(job).then(() => schedule(job));
    }, job.intervalMs);
    timer.unref();
    timers.set(job, timer);
  }

  return {
    start() {
      for (const job of list) void runOne(job).then(() => schedule(job));
    },
    async runAll() {
      await Promise.all(list.map(runOne));
    },
    async settled() {
      await Promise.all(current.values());
    },
    async stop() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      await Promise.all(current.values());
      for (const job of list) job.close?.();
    },
  };
}
