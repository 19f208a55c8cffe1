// The load generator, run as its own process: autocannon against one URL with a list of request templates
// (one picked at random for every request; "{{seq}}" in a body becomes a number unique to this run), after a
// warm-up. Latencies are taken from autocannon's per-response event with sub-millisecond precision (its own
// histogram rounds to whole milliseconds). Prints one JSON line with the result.
//   node bench/lib/loadgen.mjs <config.json>
import fs from 'node:fs';
import autocannon from 'autocannon';
import { summarize } from './stats.mjs';

const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const { templates } = config;
let seq = config.seqBase ?? 0;

const setupRequest = (request) => {
  const t = templates[Math.floor(Math.random() * templates.length)];
  request.method = t.method;
  request.path = t.path;
  if (t.body !== undefined) request.body = t.body.includes('{{seq}}') ? t.body.replaceAll('{{seq}}', String(++seq)) : t.body;
  else delete request.body;
  return request;
};

const headers = { ...config.headers };
if (templates.some((t) => t.body !== undefined)) headers['content-type'] = 'application/json';

async function run(duration, record) {
  const latencies = [];
  const statuses = {};
  const instance = autocannon({
    url: config.url,
    connections: config.connections,
    duration,
    headers,
    requests: [{ setupRequest }],
  });
  if (record) {
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  }
  const result = await instance;
  return { result, latencies, statuses };
}

const warmup = config.warmup > 0 ? (await run(config.warmup, false)).result.requests.total : 0;
const { result, latencies, statuses } = await run(config.duration, true);
const seconds = (new Date(result.finish).getTime() - new Date(result.start).getTime()) / 1000;
const ok = latencies.length;
process.stdout.write(
  `${JSON.stringify({
    requests: ok,
    seconds,
    rps: ok / seconds,
    ...summarize(latencies),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statuses,
    all_requests: warmup + result.requests.total,
  })}\n`,
);
