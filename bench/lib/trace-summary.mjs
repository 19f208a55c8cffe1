// Summarizes a delivery trace (WEBHOOK_TRACE, src/delivery/trace.ts): where each delivery's commit-to-answer time
// went, step by step, and the main thread's event loop, for the deliveries committed within [from, to].
//   node bench/lib/trace-summary.mjs <trace.jsonl> [fromMs toMs]
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fmt, summarize, table } from './stats.mjs';

/** [label, from step, to step]: consecutive, so that the p50s read as a path from the commit to the record. */
const STEPS = [
  ['commit → claim starts (waits for the loop and the connection)', 'committed', 'claimStart'],
  ['commit signal → claim starts', 'kick', 'claimStart'],
  ['claim statement', 'claimStart', 'claimEnd'],
  ['load of events and webhooks', 'claimEnd', 'loaded'],
  ['loaded → handed to the send thread', 'loaded', 'posted'],
  ['hand-off: message to the thread', 'posted', 'threadReceived'],
  ['thread: sign and encode', 'threadReceived', 'requested'],
  ['HTTP exchange (request → answer)', 'requested', 'answered'],
  ['answer → result on the main thread', 'answered', 'back'],
  ['result → recorded (committed)', 'back', 'recorded'],
  ['commit → answered (≈ commit-to-receipt)', 'committed', 'answered'],
  ['commit → recorded', 'committed', 'recorded'],
];

export function summarizeTrace(file, from = -Infinity, to = Infinity) {
  const deliveries = [];
  const loops = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const r = JSON.parse(line);
    if (r.loop !== undefined) {
      if (r.loop >= from && r.loop <= to + 1000) loops.push(r);
    } else if (r.committed >= from && r.committed <= to) deliveries.push(r);
  }
  const steps = STEPS.map(([label, a, b]) => {
    const values = deliveries.filter((d) => d[a] > 0 && d[b] > 0).map((d) => d[b] - d[a]);
    return { label, ...summarize(values) };
  });
  return {
    deliveries: deliveries.length,
    steps,
    claimBatch: summarize(deliveries.map((d) => d.claimBatch ?? 0)),
    recordBatch: summarize(deliveries.map((d) => d.recordBatch ?? 0)),
    loop: {
      utilization: summarize(loops.map((l) => l.utilization)),
      delayP99: summarize(loops.map((l) => l.delayP99)),
      delayMax: summarize(loops.map((l) => l.delayMax)),
    },
  };
}

export function printTrace(s, print = console.log) {
  print(`\ndelivery trace: ${s.deliveries} deliveries (ms; the commit is the event's time, millisecond precision)`);
  print(
    table(
      ['step', 'p50', 'p90', 'p99', 'max'],
      s.steps.filter((x) => x.count > 0).map((x) => [x.label, fmt.ms(x.p50), fmt.ms(x.p90), fmt.ms(x.p99), fmt.ms(x.max)]),
    ),
  );
  print(
    `claim batch p50 ${s.claimBatch.p50}, max ${s.claimBatch.max}; record batch p50 ${s.recordBatch.p50}, max ${s.recordBatch.max}; ` +
      `main loop utilization p50 ${s.loop.utilization.p50}, max ${s.loop.utilization.max}; loop delay p99 by second: p50 ${fmt.ms(s.loop.delayP99.p50)} ms, max ${fmt.ms(s.loop.delayP99.max)} ms; worst stall ${fmt.ms(s.loop.delayMax.max)} ms`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, from, to] = process.argv.slice(2);
  printTrace(summarizeTrace(file, from ? Number(from) : -Infinity, to ? Number(to) : Infinity));
}
