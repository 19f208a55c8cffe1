import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientTypes, GENERATED_TYPES } from '../../scripts/client-types.mjs';
import { type Harness, startHarness } from '../../test/helpers/harness.js';

// The committed generated types match what the server's document generates today (run `npm run client:generate`
// when this fails), the package builds to dist/ with declarations, and an application's use of it compiles.

const root = path.resolve(import.meta.dirname, '../..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const run = promisify(execFile);

/** Runs tsc with `args`; resolves with its output, rejects with it (tsc prints errors on stdout). */
async function typescript(...args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await run(process.execPath, [tsc, ...args], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
    return stdout + stderr;
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`tsc ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

describe('the generated types', () => {
  it('are what the served document generates (else: npm run client:generate)', async () => {
    const res = await h.call(null, { method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const fresh = await clientTypes(res.json());
    const committed = readFileSync(path.join(root, GENERATED_TYPES), 'utf8');
    // Compared as a whole but reported by line, so a stale file names what changed.
    const committedLines = committed.split('\n');
    const stale = fresh.split('\n').findIndex((line, i) => line !== committedLines[i]);
    expect(stale, `${GENERATED_TYPES} is stale from line ${stale + 1}: run npm run client:generate`).toBe(-1);
    expect(committed).toBe(fresh);
  });

  it('name every operation by its operationId and every resource by its schema name', () => {
    const committed = readFileSync(path.join(root, GENERATED_TYPES), 'utf8');
    for (const name of ['listInventoryItems', 'getInventoryItem', 'createOrderRequest']) {
      expect(committed).toMatch(new RegExp(`^    ${name}: \\{$`, 'm'));
    }
    for (const schema of ['InventoryItem', 'Lab', 'OrderRequest', 'Webhook', 'ErrorResponse']) {
      expect(committed).toMatch(new RegExp(`^        ${schema}: \\{$`, 'm'));
    }
  });
});

describe('the package', () => {
  beforeAll(async () => {
    await typescript('-p', 'client/tsconfig.json');
  });

  it('builds to dist/ with declarations that load', async () => {
    for (const file of ['index.js', 'index.d.ts', 'client.d.ts', 'errors.d.ts', 'webhooks.d.ts', 'generated/schema.d.ts']) {
      expect(existsSync(path.join(root, 'client/dist', file)), file).toBe(true);
    }
    const built = await import(path.join(root, 'client/dist/index.js'));
    expect(Object.keys(built).sort()).toEqual(
      [
        'AuthenticationError',
        'BadRequestError',
        'ConflictError',
        'DEFAULT_MAX_RETRIES',
        'DEFAULT_TIMEOUT',
        'LabstockConnectionError',
        'LabstockError',
        'LabstockTimeoutError',
        'NotFoundError',
        'PermissionDeniedError',
        'PreconditionFailedError',
        'RateLimitedError',
        'ServerError',
        'ServiceUnavailableError',
        'UnprocessableEntityError',
        'WebhookVerificationError',
        'createLabstockClient',
        'errorFor',
        'eventKind',
        'isLabstockError',
        'parseLinkHeader',
        'parseRetryAfter',
        'responseMeta',
        'unwrap',
        'unwrapWithMeta',
        'verifyWebhook',
      ].sort(),
    );
  });

  it('an application using it compiles (tsc --noEmit, without Node types)', async () => {
    // client/smoke/usage.ts imports `@labstock/client` (the built declarations, through the package's exports)
    // and marks misuses with @ts-expect-error: it compiles only while the types are precise.
    await typescript('-p', 'client/smoke/tsconfig.json');
  });

  it("the README's examples compile against it too (client/examples/, which client/test/readme.test.ts matches)", async () => {
    await typescript('-p', 'client/examples/tsconfig.json');
  });

  it('and the check is real: the same program with a misuse left unmarked does not compile', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'labstock-smoke-'));
    try {
      // An application folder with the package installed (a link, as npm makes for a workspace).
      mkdirSync(path.join(dir, 'node_modules/@labstock'), { recursive: true });
      symlinkSync(path.join(root, 'client'), path.join(dir, 'node_modules/@labstock/client'), 'dir');
      const usage = readFileSync(path.join(root, 'client/smoke/usage.ts'), 'utf8');
      const marker = '  // @ts-expect-error quantities are decimal strings\n';
      expect(usage).toContain(marker);
      writeFileSync(path.join(dir, 'broken.ts'), usage.replace(marker, ''));
      const tsconfig = JSON.parse(stripComments(readFileSync(path.join(root, 'client/smoke/tsconfig.json'), 'utf8')));
      writeFileSync(path.join(dir, 'tsconfig.broken.json'), JSON.stringify({ ...tsconfig, files: ['broken.ts'] }));
      // tsc names that line, and only that one: the rest of the program still compiles from there.
      const failure = await typescript('-p', path.join(dir, 'tsconfig.broken.json')).then(
        () => 'compiled',
        (err: Error) => err.message,
      );
      expect(failure).toMatch(/broken\.ts\(\d+,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/);
      expect(failure.match(/error TS/g)).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** tsconfig files allow comments; JSON.parse does not. */
const stripComments = (text: string) => text.replace(/^\s*\/\/.*$/gm, '');
