import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../test/helpers/harness.js';

// The package as an integrator gets it: `npm pack` in client/ (its prepack builds dist/), the tarball installed
// into an empty project with npm, and a TypeScript ESM program there that tsc checks against the installed
// declarations and node runs against the real server: it lists items page by page and creates an order request.

const client = path.resolve(import.meta.dirname, '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const run = promisify(execFile);
// npm run from `npm test` passes its settings down as npm_config_*: the project here is not the repository's.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_')));

async function sh(file: string, args: string[], cwd: string, extra: Record<string, string> = {}): Promise<string> {
  try {
    const { stdout } = await run(file, args, { cwd, env: { ...env, ...extra }, maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

const PROGRAM = `import {
  createLabstockClient,
  type InventoryItem,
  isLabstockError,
  NotFoundError,
  unwrap,
  unwrapWithMeta,
} from '@labstock/client';

declare const process: { env: Record<string, string | undefined> };
const { LABSTOCK_URL, LABSTOCK_TOKEN, LAB_ID, TYPE_ID } = process.env;

const api = createLabstockClient({ baseUrl: LABSTOCK_URL!, token: LABSTOCK_TOKEN, timeout: 10_000 });

const items: InventoryItem[] = [];
for await (const item of api.paginate('/inventory-items', { params: { query: { lab_id: LAB_ID, per_page: 1 } } })) {
  items.push(item);
}
const list = await api.GET('/inventory-items', { params: { query: { lab_id: LAB_ID, per_page: 1 } } });

const { data: order, meta } = await unwrapWithMeta(
  api.POST('/order-requests', {
    body: {
      lab_id: LAB_ID!,
      type_id: TYPE_ID!,
      name: 'Packed client order',
      vendor_name: 'Abcam',
      catalog_number: 'ab290',
      price: { amount: '41500', currency: 'USD' },
      quantity: 2,
    },
  }),
);

let missing = '';
try {
  await unwrap(api.GET('/order-requests/{id}', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } }));
} catch (err) {
  if (err instanceof NotFoundError && isLabstockError(err, 'not_found')) missing = err.name;
}

console.log(
  JSON.stringify({
    items: items.map((i) => i.id),
    total: list.meta.totalCount,
    order: { id: order.id, name: order.item_name, status: order.status },
    created: meta.status,
    missing,
  }),
);
`;

// Once, on SQLite: on PostgreSQL (.ci/run's second stage) the same package would only be packed again.
const onPostgres = process.env.DATABASE_URL?.startsWith('postgres') === true;

let h: Harness;
let baseUrl: string;
let dir: string;
let tarball: string;
let source: string;
describe.skipIf(onPostgres)('the packed @labstock/client', () => {
  beforeAll(async () => {
    h = await startHarness();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    dir = mkdtempSync(path.join(tmpdir(), 'labstock-client-pack-'));
    // Packed from a copy of the package's files, so its prepack (which empties and rebuilds dist/) does not pull
    // client/dist from under generated.test.ts running beside it. The copy sits inside client/ so that the build
    // finds tsc and the dependencies where the package does.
    source = mkdtempSync(path.join(client, '.pack-'));
    for (const file of ['package.json', 'tsconfig.json', 'README.md', 'src']) {
      cpSync(path.join(client, file), path.join(source, file), { recursive: true });
    }
    const packed = JSON.parse(await sh('npm', ['pack', '--json', '--pack-destination', dir], source)) as [{ filename: string }];
    tarball = path.join(dir, packed[0].filename);
  }, 180_000);
  afterAll(async () => {
    await h?.close();
    for (const folder of [dir, source]) if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('holds the built code, its declarations and the README, and no sources or tests', async () => {
    const files = (await sh('tar', ['-tzf', tarball], dir)).trim().split('\n').sort();
    expect(files).toEqual(
      expect.arrayContaining(['package/README.md', 'package/package.json', 'package/dist/index.js', 'package/dist/index.d.ts']),
    );
    expect(files).toContain('package/dist/generated/schema.d.ts');
    expect(files.filter((f) => !/^package\/(dist\/.*\.(js|d\.ts)|README\.md|package\.json)$/.test(f))).toEqual([]);
  });

  it('installs into an empty project, and a TypeScript ESM program there type-checks and runs against the server', async () => {
    const app = path.join(dir, 'app');
    await sh('mkdir', ['-p', app], dir);
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    await sh('npm', ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund'], app);
    const installed = JSON.parse(readFileSync(path.join(app, 'node_modules/@labstock/client/package.json'), 'utf8'));
    expect(installed.name).toBe('@labstock/client');

    writeFileSync(path.join(app, 'main.ts'), PROGRAM);
    writeFileSync(
      path.join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          types: [],
          strict: true,
          skipLibCheck: false,
          outDir: 'out',
        },
        files: ['main.ts'],
      }),
    );
    await sh(process.execPath, [tsc, '-p', 'tsconfig.json'], app);

    const before = await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests?lab_id=${h.a.legacyLab.id}` });
    const output = await sh(process.execPath, ['out/main.js'], app, {
      LABSTOCK_URL: baseUrl,
      LABSTOCK_TOKEN: h.a.admin.token,
      LAB_ID: h.a.legacyLab.id,
      TYPE_ID: h.a.legacyLab.typeId,
    });
    const result = JSON.parse(output.trim()) as {
      items: string[];
      total: number;
      order: { id: string; name: string; status: string };
      created: number;
      missing: string;
    };

    const items = await h.call(h.a.admin.token, { method: 'GET', url: `/inventory-items?lab_id=${h.a.legacyLab.id}&per_page=100` });
    expect(result.items).toEqual(items.json<{ id: string }[]>().map((i) => i.id));
    expect(result.items.length).toBeGreaterThan(0);
    expect(result.total).toBe(result.items.length);
    expect(result.created).toBe(201);
    expect(result.missing).toBe('NotFoundError');

    const stored = await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests/${result.order.id}` });
    expect(stored.statusCode).toBe(200);
    expect(result.order.name).toBe('Packed client order');
    expect(stored.json()).toMatchObject({ id: result.order.id, item_name: 'Packed client order', status: result.order.status });
    const after = await h.call(h.a.admin.token, { method: 'GET', url: `/order-requests?lab_id=${h.a.legacyLab.id}` });
    expect(Number(after.headers['x-total-count'])).toBe(Number(before.headers['x-total-count']) + 1);
  });
});
