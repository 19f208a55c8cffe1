// The typed readers of one environment variable each, for loadConfig (src/shared/config.ts): each records what is
// wrong in `problems` and returns the fallback, so every problem is reported together.

type Env = Record<string, string | undefined>;

export function readers(env: Env, problems: string[]) {
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name}: expected a whole number from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return n;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = env[name]?.trim().toLowerCase();
    if (raw === undefined || raw === '') return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    problems.push(`${name}: expected true or false, got "${env[name]}"`);
    return fallback;
  };
  const url = (name: string, fallback: string): string => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    try {
      const u = new URL(raw);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
      return raw.replace(/\/+$/, '');
    } catch {
      problems.push(`${name}: expected an http(s) URL, got "${raw}"`);
      return fallback;
    }
  };

  const duration = (name: string, fallback: number): number => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const value = parseDuration(raw);
    if (value === null || value <= 0) {
      problems.push(`${name}: expected a duration such as "30s", "250ms", "5d" or a number of milliseconds, got "${raw}"`);
      return fallback;
    }
    return value;
  };

  const list = (name: string): string[] =>
    (env[name] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const cidrs = (name: string): string[] => {
    const values = list(name);
    for (const cidr of values) {
      if (!/^[0-9a-fA-F:.]+\/\d{1,3}$/.test(cidr)) problems.push(`${name}: "${cidr}" is not a CIDR range such as 127.0.0.0/8 or ::1/128`);
    }
    return values;
  };
  const decimal = (name: string, fallback: string, max: number): string => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    if (!/^\d{1,12}(\.\d{1,8})?$/.test(raw) || Number(raw) > max) {
      problems.push(`${name}: expected a non-negative decimal number up to ${max}, got "${raw}"`);
      return fallback;
    }
    return raw;
  };
  return { int, bool, url, duration, list, cidrs, decimal };
}

/** "10s", "250ms", "5m", "1h", "5d" or a bare number of milliseconds. */
export function parseDuration(text: string): number | null {
  const m = /^(\d+)(ms|s|m|h|d)?$/.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = m[2] ?? 'ms';
  return n * { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[unit]!;
}
