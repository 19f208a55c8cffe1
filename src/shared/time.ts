/** Date-times are RFC 3339 in UTC with milliseconds; stored as that same text so it sorts on both databases. */
export const nowIso = (): string => new Date().toISOString();

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** A real calendar date in YYYY-MM-DD (rejects 2026-02-30). */
export function isDate(s: string): boolean {
  const m = DATE_RE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}
