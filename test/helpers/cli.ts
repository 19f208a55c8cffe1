// Runs the real binary (dist/, built by `npm test` before vitest runs) against a test's own database.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import type { TestDatabase } from './db.js';
import { TEST_ENV } from './harness.js';

const run = promisify(execFile);
export const CLI = path.resolve('dist/cli/main.js');

/** The environment that points the CLI at a test database (a PostgreSQL test schema via the search_path). */
export function cliEnv(database: TestDatabase): NodeJS.ProcessEnv {
  const url = database.pgSchema
    ? `${database.url}${database.url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${database.pgSchema}`)}`
    : database.url;
  return { ...process.env, ...TEST_ENV, DATABASE_URL: url };
}

/** `labstock … --json`, parsed; a failure names the command and shows what it printed. */
export async function cliJson(env: NodeJS.ProcessEnv, ...args: string[]): Promise<any> {
  try {
    const { stdout } = await run(process.execPath, [CLI, ...args, '--json'], { env });
    return JSON.parse(stdout);
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string; message: string };
    throw new Error(`labstock ${args.join(' ')} --json failed: ${e.message}\nstdout: ${e.stdout ?? ''}\nstderr: ${e.stderr ?? ''}`);
  }
}

/** A command that must fail with exit code 1; returns its stderr. */
export async function cliFailure(env: NodeJS.ProcessEnv, ...args: string[]): Promise<string> {
  try {
    await run(process.execPath, [CLI, ...args], { env });
  } catch (err) {
    const e = err as { code: number; stderr: string };
    expect(e.code).toBe(1);
    return e.stderr;
  }
  throw new Error(`expected "labstock ${args.join(' ')}" to fail`);
}
