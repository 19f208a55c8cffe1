// Issue 22, item 14, for the built binary (`npm run build` first): `labstock serve` asked to stop (SIGTERM) while
// PostgreSQL does not answer (a real TCP proxy that stops forwarding) used to wait for ever for its connections to
// close. It must end within SHUTDOWN_TIMEOUT, with exit code 1 and a log line saying what happened; with the
// database answering it still stops cleanly with 0.
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cliEnv } from '../helpers/cli.js';
import { type Harness, startHarness } from '../helpers/harness.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { onPostgres, PG_ONLY, waitFor } from './_pg.js';

let h: Harness;
let proxy: TcpProxy;
const children: ChildProcess[] = [];

beforeAll(async () => {
  if (!onPostgres) return;
  h = await startHarness();
  proxy = await TcpProxy.forUrl(process.env.DATABASE_URL!).start();
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  proxy?.resume();
  await proxy?.close();
  await h?.close();
});

const SHUTDOWN_TIMEOUT_MS = 2000;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `labstock serve` with its database reached through the proxy; resolves once it serves. */
async function serveThroughProxy(): Promise<{ child: ChildProcess; output: string[] }> {
  const env = cliEnv(h.database);
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: {
      ...env,
      DATABASE_URL: proxy.url(env.DATABASE_URL!),
      PORT: String(port),
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT: `${SHUTDOWN_TIMEOUT_MS}ms`,
      DATABASE_CONNECT_TIMEOUT: '1s',
      DATABASE_STATEMENT_TIMEOUT: '1s',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const output: string[] = [];
  for (const s of [child.stdout!, child.stderr!]) readline.createInterface({ input: s }).on('line', (l) => output.push(l));
  await waitFor('labstock serve listening', 20_000, () => output.some((l) => l.includes('Labstock listening')));
  const res = await fetch(`http://127.0.0.1:${port}/user`, { headers: { 'access-token': h.a.admin.token } });
  expect(res.status, await res.text()).toBe(200);
  return { child, output };
}

/** Sends SIGTERM and waits at most `boundMs` for the exit; the exit code, or null if it was still running. */
async function terminate(child: ChildProcess, boundMs: number): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  const timedOut = new Promise<null>((resolve) => setTimeout(() => resolve(null), boundMs).unref());
  return Promise.race([exited, timedOut.then(() => (child.exitCode === null && child.signalCode === null ? null : child.exitCode))]);
}

describe.skipIf(!onPostgres)(`SIGTERM while PostgreSQL is stalled (${PG_ONLY})`, () => {
  it('the database answering: labstock serve stops with exit code 0', async () => {
    const { child, output } = await serveThroughProxy();
    const code = await terminate(child, 10 * SHUTDOWN_TIMEOUT_MS);
    expect(code, output.slice(-3).join('\n').slice(-2000)).toBe(0);
  });

  it('the database stalled: labstock serve ends within a bound relative to SHUTDOWN_TIMEOUT, with exit code 1 and a log line', async () => {
    const { child, output } = await serveThroughProxy();
    proxy.stall();
    try {
      // Generous: ten times the deadline. Before the deadline existed the process never ended.
      const code = await terminate(child, 10 * SHUTDOWN_TIMEOUT_MS);
      expect(code, `still running or wrong code:\n${output.slice(-3).join('\n').slice(-2000)}`).toBe(1);
      expect(output.some((l) => l.includes('SHUTDOWN_TIMEOUT'))).toBe(true);
    } finally {
      proxy.resume();
    }
  });
});
