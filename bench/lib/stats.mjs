// Percentiles and formatting shared by the benchmark's processes.

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** p50/p90/p99/max/mean of latencies in milliseconds. */
export function summarize(values) {
  const sorted = Float64Array.from(values).sort();
  const mean = sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : null;
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : null,
    mean,
  };
}

export const fmt = {
  int: (x) => (x == null ? '–' : Math.round(x).toLocaleString('en-US')),
  ms: (x) => (x == null ? '–' : x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0)),
  ratio: (x) => (x == null || !Number.isFinite(x) ? '–' : x.toFixed(2)),
  mb: (kb) => (kb == null ? '–' : (kb / 1024).toFixed(0)),
};

/** A plain-text table (also valid Markdown) from a header row and rows of strings. */
export function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}
