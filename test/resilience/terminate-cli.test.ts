// Issue 9, item 1, for the built binaries (`npm run build` first): `labstock serve`, `serve --no-worker` and
// `worker`, their PostgreSQL backends killed with pg_terminate_backend while idle and under load. Each process
// must still be running afterwards (it used to exit within ~100 ms on an unhandled 'error'), serve again within
// seconds, and a worker's LISTEN must come back: with a 60 s poll, a delivery within seconds proves the NOTIFY.
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import readline from 'node:readline';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cliEnv } from '../helpers/cli.js';
import { type Harness, startHarness } from '../helpers/harness.js';
import { Receiver } from '../helpers/receiver.js';
import { expectOkOr503, onPostgres, PG_ONLY, PgAdmin, waitFor, within } from './_pg.js';

let h: Harness;
let admin: PgAdmin;
let receiver: Receiver;
const children: Labstock[] = [];

beforeAll(async () => {
  if (!onPostgres) return;
  h = await startHarness({ WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32' });
  admin = await new PgAdmin().open();
  receiver = await new Receiver().start();
});
afterEach(async () => {
  await Promise.all(children.splice(0).map((c) => c.stop()));
});
afterAll(async () => {
  await receiver?.stop();
  await admin?.close();
  await h?.close();
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A spawned `labstock …` on the test schema, with its own application_name so its backends can be found. */
class Labstock {
  readonly child: ChildProcess;
  readonly output: string[] = [];
  readonly appName: string;
  constructor(
    readonly args: string[],
    readonly port: number,
  ) {
    this.appName = `labstock-cli-${args.join('-')}-${port}`;
    const env = cliEnv(h.database);
    env.DATABASE_URL = `${env.DATABASE_URL}${env.DATABASE_URL!.includes('?') ? '&' : '?'}application_name=${encodeURIComponent(this.appName)}`;
    this.child = spawn(process.execPath, [CLI, ...args], {
      env: { ...env, PORT: String(port), LOG_LEVEL: 'info', WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32', WEBHOOK_POLL: '60s' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const s of [this.child.stdout!, this.child.stderr!]) readline.createInterface({ input: s }).on('line', (l) => this.output.push(l));
    children.push(this);
  }
  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }
  /** Still running, or a failure that shows what it printed. */
  expectRunning(): void {
    expect(
      this.running,
      `labstock ${this.args.join(' ')} exited (${this.child.exitCode ?? this.child.signalCode}):\n${this.output.slice(-20).join('\n')}`,
    ).toBe(true);
  }
  async stop(): Promise<void> {
    if (!this.running) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

async function fetchJson(url: string, token?: string): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { headers: token ? { 'access-token': token } : {}, signal: AbortSignal.timeout(15_000) });
  return { status: res.status, body: await res.text() };
}

const ok = async (p: Promise<{ status: number }>) => {
  try {
    return (await p).status === 200;
  } catch {
    return false;
  }
};

async function expectServes(c: Labstock): Promise<void> {
  await waitFor(
    `${c.appName} serving /healthz and /user`,
    15_000,
    async () => (await ok(fetchJson(`${c.url}/healthz`))) && (await ok(fetchJson(`${c.url}/user`, h.a.admin.token))),
  );
  c.expectRunning();
}

describe.skipIf(!onPostgres)(`the binaries survive pg_terminate_backend (${PG_ONLY})`, () => {
  for (const args of [['serve'], ['serve', '--no-worker']]) {
    it(`labstock ${args.join(' ')}: alive and serving within seconds after its backends are killed, idle and under load`, async () => {
      const c = new Labstock(args, await freePort());
      await expectServes(c);
      expect((await admin.kill(c.appName)).length).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 500)); // it used to be gone within ~100 ms
      c.expectRunning();
      await expectServes(c);

      let stop = false;
      const load = async () => {
        while (!stop) {
          const res = await within(
            20_000,
            'a request under load',
            fetchJson(`${c.url}/inventory-items?lab_id=${h.a.migratedLab.id}`, h.a.admin.token),
          );
          expectOkOr503(res.status, res.body, 'GET under load');
        }
      };
      const clients = Array.from({ length: 6 }, load);
      for (let round = 0; round < 6; round++) {
        await new Promise((r) => setTimeout(r, 250));
        await admin.kill(c.appName);
      }
      stop = true;
      await Promise.all(clients);
      c.expectRunning();
      await expectServes(c);
    });
  }

  it('labstock worker: alive after its backends are killed, LISTEN back, and a NOTIFY-woken delivery arrives', async () => {
    const hook = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/webhooks',
      payload: { organization_id: h.a.orgId, url: receiver.url },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const c = new Labstock(['worker'], 0);
    await waitFor('the worker LISTENing', 15_000, async () => (await admin.listener(c.appName)) !== undefined);
    const first = await admin.listener(c.appName);
    // Each round kills the LISTEN connection the worker made after the previous kill; how soon it reconnects
    // depends on the machine's load, so each round waits for it rather than for a fixed time.
    let killed = first;
    for (let round = 0; round < 3; round++) {
      await waitFor(`LISTEN back before kill ${round + 1}`, 15_000, async () => {
        const pid = await admin.listener(c.appName);
        return pid !== undefined && (round === 0 || pid !== killed);
      });
      killed = await admin.listener(c.appName);
      expect((await admin.kill(c.appName)).length).toBeGreaterThan(0);
      c.expectRunning();
    }
    c.expectRunning();
    await waitFor('a new LISTEN connection', 15_000, async () => {
      const pid = await admin.listener(c.appName);
      return pid !== undefined && pid !== killed;
    });
    const before = receiver.posts.length;
    const res = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/inventory-items/${h.a.migratedLab.itemId}/instances/${h.a.migratedLab.instanceIds[0]}`,
      payload: { quantity: '7' },
    });
    expect(res.statusCode, res.body).toBe(200);
    // WEBHOOK_POLL is 60 s: only the NOTIFY on the new LISTEN connection wakes the worker this soon.
    await receiver.waitFor(before + 1, 15_000);
    c.expectRunning();
  });
});
