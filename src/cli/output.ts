// Every command prints either a human summary or, with --json, exactly one JSON document on stdout, so scripts
// can pipe it to jq. Progress and logs go to stderr and never mix into that document.

export function emit(json: boolean, data: unknown, human: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(data, null, 2)}\n` : `${human()}\n`);
}

export function table(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cell = (v: unknown) => (v === null || v === undefined ? '-' : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(columns), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))].join('\n');
}

/** A bad argument or file given to a command: printed as one line (or a JSON error under --json), never a stack. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** True when the command line asks for JSON output, so errors are JSON too. */
export const wantsJson = (argv: readonly string[] = process.argv): boolean => argv.includes('--json');

/** Writes an error as one line, or under --json as `{"error":{"code","message"}}`, both on stderr. */
export function printError(code: string, message: string, json: boolean = wantsJson()): void {
  process.stderr.write(json ? `${JSON.stringify({ error: { code, message } })}\n` : `error: ${message}\n`);
}
