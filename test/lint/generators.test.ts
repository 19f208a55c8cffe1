import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { createClient } from '@hey-api/openapi-ts';
import { generate } from 'orval';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientTypes } from '../../scripts/client-types.mjs';
import { type ServedDocument, servedDocument } from './served-document.js';

// Three independent generators make a client of GET /openapi.json that compiles as generated, with no hand fix
// (issue 24): openapi-typescript (what client/ uses), orval and @hey-api/openapi-ts. Each writes into its own
// folder of a temporary directory, and one strict tsc run per folder checks it.

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const run = promisify(execFile);

/** The settings an application would compile the generated code with: strict, ES modules, browser and Node fetch. */
const COMPILER_OPTIONS = {
  strict: true,
  noEmit: true,
  target: 'ES2022',
  module: 'ESNext',
  moduleResolution: 'bundler',
  lib: ['ES2022', 'DOM', 'DOM.Iterable'],
  types: [],
};

/** tsc over one folder; its errors (on stdout) or '' when it compiles. */
async function compile(dir: string): Promise<string> {
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: COMPILER_OPTIONS, include: ['**/*.ts'] }));
  return run(process.execPath, [tsc, '-p', dir], { maxBuffer: 16 * 1024 * 1024 }).then(
    () => '',
    (err: { stdout?: string; stderr?: string }) => `${err.stdout ?? ''}${err.stderr ?? ''}` || 'tsc failed',
  );
}

const sources = (dir: string): string =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => readFileSync(path.join(dir, f), 'utf8'))
    .join('\n');

let served: ServedDocument;
const folders = { 'openapi-typescript': '', orval: '', 'hey-api': '' };
let errors: Record<string, string>;
beforeAll(async () => {
  served = await servedDocument();
  for (const name of Object.keys(folders) as (keyof typeof folders)[]) {
    folders[name] = path.join(served.dir, name);
    mkdirSync(folders[name]);
  }
  writeFileSync(path.join(folders['openapi-typescript'], 'schema.ts'), await clientTypes(served.document));
  await generate({
    input: { target: served.file },
    output: { target: path.join(folders.orval, 'labstock.ts'), client: 'fetch', mode: 'single' },
  });
  await createClient({
    input: served.file,
    output: folders['hey-api'],
    plugins: ['@hey-api/client-fetch'],
    logs: { level: 'silent' },
  });
  const results = await Promise.all(Object.values(folders).map(compile));
  errors = Object.fromEntries(Object.keys(folders).map((name, i) => [name, results[i]!]));
  // About 15 s of CPU in all (generating, then three tsc runs at once); on a busy machine it takes longer.
}, 300_000);
afterAll(() => rmSync(served.dir, { recursive: true, force: true }));

describe('clients generated from GET /openapi.json', () => {
  for (const name of Object.keys(folders) as (keyof typeof folders)[]) {
    it(`${name}: compiles with strict TypeScript as generated`, () => {
      expect(errors[name]!.slice(0, 4000)).toBe('');
      const code = sources(folders[name]);
      // An operation and the error body under their own names; no generated type shadows the global Error.
      expect(code).toMatch(/listInventoryItems|ListInventoryItems/);
      expect(code).toContain('ErrorResponse');
      expect(code).not.toMatch(/\b(type|interface) Error\b/);
    });
  }
});
