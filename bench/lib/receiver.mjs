// The webhook receiver, run as its own process (forked, driven over IPC): answers 204 to every POST and notes
// when each arrived. A Labstock delivery's latency is arrival minus the event's `time` (set inside the change's
// transaction, just before it commits, with millisecond precision: so it slightly overstates commit-to-receipt);
// a floor POST's is arrival minus its X-Sent-At header. Both clocks are this machine's wall clock.
import http from 'node:http';
import { summarize } from './stats.mjs';

const wallNow = () => performance.timeOrigin + performance.now();
let arrivals = [];
let latencies = [];
/** [arrival, latency] of each event, for the latency second by second (does the tail come from the start?). */
let timed = [];
let sampleBody = null;
let waiter = null;

function check() {
  if (waiter && arrivals.length >= waiter.count) finish();
}

function finish() {
  const w = waiter;
  waiter = null;
  clearTimeout(w.timer);
  const first = arrivals.length ? Math.min(...arrivals) : null;
  const last = arrivals.length ? Math.max(...arrivals) : null;
  const seconds = [];
  for (const [at, ms] of timed) (seconds[Math.floor((at - first) / 1000)] ??= []).push(ms);
  const bySecond = seconds.map((l, i) => ({ second: i, ...summarize(l ?? []) }));
  process.send({
    received: arrivals.length,
    firstAt: first,
    lastAt: last,
    latency: summarize(latencies),
    bySecond,
    sampleBytes: sampleBody?.length ?? 0,
    sampleBody,
  });
}

const server = http.createServer((req, res) => {
  if (req.method === 'OPTIONS') {
    // The CloudEvents validation handshake.
    res.writeHead(200, { 'WebHook-Allowed-Origin': req.headers['webhook-request-origin'] ?? '*', 'WebHook-Allowed-Rate': '*' }).end();
    return;
  }
  if (req.method !== 'POST') {
    // A load generator opening its connections (GET): answered, not counted.
    req.resume();
    res.writeHead(204).end();
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const at = wallNow();
    res.writeHead(204).end();
    const body = Buffer.concat(chunks).toString('utf8');
    const sentAt = req.headers['x-sent-at'];
    let from = sentAt ? Number(sentAt) : NaN;
    if (!sentAt) {
      try {
        from = Date.parse(JSON.parse(body).time);
      } catch {
        /* not an event */
      }
    }
    arrivals.push(at);
    if (Number.isFinite(from)) {
      latencies.push(at - from);
      timed.push([at, at - from]);
    }
    if (!sentAt) sampleBody = body;
    check();
  });
});
server.keepAliveTimeout = 60_000;

process.on('message', (msg) => {
  if (msg.cmd === 'reset') {
    arrivals = [];
    latencies = [];
    timed = [];
    process.send({ ok: true });
  } else if (msg.cmd === 'wait') {
    waiter = { count: msg.count, timer: setTimeout(finish, msg.timeoutMs) };
    check();
  } else if (msg.cmd === 'stop') {
    server.close(() => process.exit(0));
  }
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
