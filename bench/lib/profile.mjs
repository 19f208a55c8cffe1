// Summarizes a V8 .cpuprofile (node --cpu-prof): self time by function and by where the code lives
// (a package under node_modules, a folder of dist/, node's internals, GC, idle).
//   node bench/lib/profile.mjs <file.cpuprofile> [top]
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

function whereOf(url, functionName) {
  if (!url) {
    if (functionName === '(garbage collector)') return 'GC';
    if (functionName === '(idle)') return 'idle';
    if (functionName === '(program)') return 'program (native, not attributed)';
    return `native: ${functionName || '(anonymous)'}`;
  }
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return `npm: ${rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  const dist = url.indexOf('/dist/');
  if (dist >= 0) {
    const rest = url.slice(dist + '/dist/'.length).split('/');
    return `labstock: ${rest.length > 1 ? rest[0] : rest[0].replace(/\.js$/, '')}`;
  }
  if (url.startsWith('node:')) return `node: ${url.slice(5).split('/')[0]}`;
  return url;
}

export function summarizeProfile(file, top = 25) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map();
  const deltas = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const d = deltas[i + 1] ?? 0;
    selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + d);
  }
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const fns = new Map();
  const places = new Map();
  for (const [id, us] of selfUs) {
    const { callFrame } = byId.get(id);
    const where = whereOf(callFrame.url, callFrame.functionName);
    const short = callFrame.url ? callFrame.url.replace(/^.*\/(node_modules|dist)\//, '$1/').replace(/^file:\/\//, '') : '';
    const key = `${callFrame.functionName || '(anonymous)'} ${short}${callFrame.url ? `:${callFrame.lineNumber + 1}` : ''}`;
    fns.set(key, (fns.get(key) ?? 0) + us);
    places.set(where, (places.get(where) ?? 0) + us);
  }
  const busy = total - (places.get('idle') ?? 0);
  const rank = (m) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({
        name,
        ms: us / 1000,
        share_of_total: us / total,
        share_of_busy: name === 'idle' ? null : us / busy,
      }));
  return { file, total_ms: total / 1000, busy_ms: busy / 1000, by_place: rank(places), by_function: rank(fns) };
}

export function printProfile(summary, print = console.log) {
  const pct = (x) => (x == null ? '' : `${(x * 100).toFixed(1)} %`);
  print(`profile ${summary.file}: ${summary.total_ms.toFixed(0)} ms sampled, ${summary.busy_ms.toFixed(0)} ms busy`);
  print('  self time by place (share of busy time):');
  for (const p of summary.by_place) print(`    ${pct(p.share_of_busy).padStart(7)}  ${p.name}`);
  print('  self time by function (share of busy time):');
  for (const f of summary.by_function) if (f.name !== '(idle) ') print(`    ${pct(f.share_of_busy).padStart(7)}  ${f.name}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  printProfile(summarizeProfile(process.argv[2], Number(process.argv[3]) || 25));
}
