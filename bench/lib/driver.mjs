// Sends requests with undici, run as its own process; prints one JSON line.
//   rate mode:  N requests at a fixed rate, open loop (each sent on schedule whether or not earlier ones answered)
//   burst mode: N requests with a fixed number in flight, as fast as they go
// Templates are {method, path, body?}; "{{seq}}" in a body becomes a number unique to this run. With `stamp`,
// every request carries X-Sent-At (wall-clock milliseconds) for the receiver. With `preconnect` (a path), the
// pool's connections are opened with one GET each before the clock starts.
//   node bench/lib/driver.mjs <config.json>
import fs from 'node:fs';
import { Pool } from 'undici';
import { summarize } from './stats.mjs';

const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const pool = new Pool(config.origin, { connections: config.connections ?? 64, keepAliveTimeout: 60_000 });
const wallNow = () => performance.timeOrigin + performance.now();
let seq = config.seqBase ?? 0;
let ok = 0;
let failed = 0;
const statuses = {};
/** Answer latencies by the second they were sent in (rate mode), to see when the server fell behind. */
const bySecond = [];

async function send() {
  const t = config.templates[Math.floor(Math.random() * config.templates.length)];
  const headers = { ...config.headers };
  if (t.body !== undefined) headers['content-type'] = 'application/json';
  if (config.stamp) headers['x-sent-at'] = String(wallNow());
  const sentAt = performance.now();
  try {
    const res = await pool.request({ method: t.method, path: t.path, headers, body: t.body?.replaceAll('{{seq}}', String(++seq)) });
    await res.body.dump();
    (bySecond[Math.floor((sentAt - started) / 1000)] ??= []).push(performance.now() - sentAt);
    statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    if (res.statusCode < 300) ok++;
    else failed++;
  } catch (err) {
    failed++;
    statuses[err.code ?? 'error'] = (statuses[err.code ?? 'error'] ?? 0) + 1;
  }
}

if (config.preconnect) {
  // Opens the pool's connections before the clock starts, so that the measured requests do not pay for them.
  await Promise.all(
    Array.from({ length: config.connections ?? 64 }, () =>
      pool.request({ method: 'GET', path: config.preconnect }).then(
        (r) => r.body.dump(),
        () => undefined,
      ),
    ),
  );
}
const started = performance.now();
let maxLagMs = 0;
if (config.mode === 'rate') {
  const inFlight = new Set();
  const interval = 1000 / config.rate;
  let i = 0;
  await new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (i < config.count && started + i * interval <= now) {
        maxLagMs = Math.max(maxLagMs, now - (started + i * interval));
        const p = send().finally(() => inFlight.delete(p));
        inFlight.add(p);
        i++;
      }
      if (i < config.count) setTimeout(tick, Math.max(0, Math.min(interval, started + i * interval - performance.now())));
      else resolve();
    };
    tick();
  });
  await Promise.all(inFlight);
} else {
  let i = 0;
  const lane = async () => {
    while (i < config.count) {
      i++;
      await send();
    }
  };
  await Promise.all(Array.from({ length: config.concurrency }, lane));
}
const seconds = (performance.now() - started) / 1000;
await pool.close();
const answers = Array.from(bySecond, (l, second) => ({ second, ...summarize(l ?? []) }));
process.stdout.write(
  `${JSON.stringify({ sent: ok + failed, ok, failed, seconds, rps: (ok + failed) / seconds, maxLagMs, statuses, bySecond: answers })}\n`,
);
