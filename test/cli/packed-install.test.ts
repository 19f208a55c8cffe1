// Issue 24: `npm pack` gives a package that installs into an empty folder and serves the API and the web application
// with nothing from the repository (docs/deploy.md). It packs the built tree (`npm run build` first, as for every CLI
// test; `npm pack` alone runs the build itself through prepack), installs the tarball from npm's cache, starts the
// installed `labstock serve` with the defaults and signs in at the address it prints.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from '../../src/shared/config.js';

const run = promisify(execFile);
// The installed service uses its own SQLite file: the PostgreSQL stage would only repeat it.
const onPostgres = parseDatabaseUrl(process.env.DATABASE_URL).kind === 'postgres';
const REPO = path.resolve('.');

/** The environment of a fresh machine: nothing of Labstock's (no DATABASE_URL, no APP_URL), only what npm needs. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'npm_config_cache', 'npm_config_nodedir'];
  return { ...Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]])), ...extra };
}

/**
 * better-sqlite3 fetches its compiled addon from GitHub at install, or compiles it (minutes on a shared machine).
 * prebuild-install takes a local prebuild instead (npm_config_better_sqlite3_local_prebuilds, docs/deploy.md): the
 * repository's own build of the same version, packed the way its releases are.
 */
async function localPrebuild(dir: string): Promise<string> {
  const moduleDir = path.join(REPO, 'node_modules/better-sqlite3');
  const { version } = JSON.parse(fs.readFileSync(path.join(moduleDir, 'package.json'), 'utf8')) as { version: string };
  const staging = path.join(dir, 'staging');
  fs.mkdirSync(path.join(staging, 'build/Release'), { recursive: true });
  fs.copyFileSync(path.join(moduleDir, 'build/Release/better_sqlite3.node'), path.join(staging, 'build/Release/better_sqlite3.node'));
  const prebuilds = path.join(dir, 'prebuilds');
  fs.mkdirSync(prebuilds);
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  await run('tar', ['-czf', path.join(prebuilds, name), '-C', staging, 'build']);
  return prebuilds;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.skipIf(onPostgres)('the packed package on a fresh folder', () => {
  let dir: string;
  let app: string;
  let server: ChildProcess | undefined;
  const output: string[] = [];

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labstock-packed-'));
    app = path.join(dir, 'app');
    fs.mkdirSync(app);
  });
  afterAll(() => {
    if (server && server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('packs the built files and nothing of the repository', async () => {
    expect(fs.existsSync(path.join(REPO, 'dist/web/index.html')), 'run npm run build first').toBe(true);
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: REPO, env: cleanEnv() });
    const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
    const files = packed!.files.map((f) => f.path);
    expect(files).toContain('dist/cli/main.js');
    expect(files).toContain('dist/web/index.html');
    expect(files).toContain('dist/shared/db/migrations/0001_initial.js');
    expect(files).toContain('docs/changelog.md');
    expect(files.filter((f) => /^(src|test|web|scripts|bench|client)\//.test(f) || f.endsWith('.map'))).toEqual([]);
  });

  it('installs into an empty folder with only the runtime dependencies', async () => {
    const [tarball] = fs.readdirSync(dir).filter((f) => f.endsWith('.tgz'));
    fs.writeFileSync(path.join(app, 'package.json'), '{ "private": true }\n');
    const prebuilds = await localPrebuild(dir);
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(dir, tarball!)], {
      cwd: app,
      env: cleanEnv({ npm_config_better_sqlite3_local_prebuilds: prebuilds }),
    });
    expect(fs.existsSync(path.join(app, 'node_modules/.bin/labstock'))).toBe(true);
    // The web application's libraries are bundled into dist/web at build time; the server never loads them.
    for (const buildOnly of ['react', '@mantine/core', 'vite', 'typescript'])
      expect(fs.existsSync(path.join(app, 'node_modules', buildOnly)), buildOnly).toBe(false);
  });

  it('serves the API and the web application, and a browser signs in at the printed address and at localhost', async () => {
    const port = await freePort();
    server = spawn(path.join(app, 'node_modules/.bin/labstock'), ['serve'], {
      cwd: app,
      env: cleanEnv({ PORT: String(port), LOG_LEVEL: 'info' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const s of [server.stdout!, server.stderr!]) readline.createInterface({ input: s }).on('line', (l) => output.push(l));
    const exited = new Promise<number | null>((resolve) => server!.once('exit', resolve));
    let printed: string | undefined;
    while (!printed && server.exitCode === null) {
      printed = output.map((l) => /Labstock listening on (http:\/\/\S+)/.exec(l)?.[1]).find(Boolean);
      await new Promise((r) => setTimeout(r, 100));
    }
    if (!printed) throw new Error(`labstock serve exited before listening:\n${output.join('\n')}`);
    expect(printed).toBe(`http://127.0.0.1:${port}`);

    const health = await fetch(`${printed}/healthz`);
    expect(await health.json()).toMatchObject({ status: 'ok', database: 'ok' });
    const page = await fetch(`${printed}/app/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toMatch(/<script type="module"[^>]+src="\/app\/assets\//);
    expect((await fetch(`${printed}/changelog`)).status).toBe(200);

    // The demo organization's admin, seeded by the installed binary into the installed service's database.
    const { stdout } = await run(path.join(app, 'node_modules/.bin/labstock'), ['demo', '--json'], {
      cwd: app,
      env: cleanEnv({ PORT: String(port) }),
    });
    const { sign_in: credentials, app_url } = JSON.parse(stdout) as { sign_in: { email: string; password: string }; app_url: string };
    expect(app_url).toBe(`${printed}/app/`);
    for (const origin of [printed, `http://localhost:${port}`]) {
      const res = await fetch(`${origin}/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: JSON.stringify(credentials),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(res.headers.get('set-cookie')).toMatch(/^labstock_session=/);
    }

    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(fs.existsSync(path.join(app, 'data/labstock.sqlite'))).toBe(true);
  });
});
