// Module hooks for a worker thread started from the TypeScript source (tests under vitest, which transforms only
// its own modules, not a thread's): `.js` specifiers of the source resolve to their `.ts` file, and `.ts` files are
// transpiled with TypeScript (a development dependency; the compiled dist/ never comes here: start.ts). The output
// is kept in a cache by the source's hash: loading TypeScript and transpiling took ~2 s per thread on 2 busy cores.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CACHE = path.join(os.tmpdir(), `labstock-ts-threads-${process.getuid?.() ?? 'user'}`);
const OPTIONS_TAG = 'esnext-es2022-v1';

export async function resolve(specifier, context, next) {
  if (context.parentURL?.endsWith('.ts') && specifier.startsWith('.') && specifier.endsWith('.js')) {
    const url = new URL(specifier, context.parentURL);
    const source = new URL(url.href.replace(/\.js$/, '.ts'));
    if (!existsSync(fileURLToPath(url)) && existsSync(fileURLToPath(source))) return { url: source.href, shortCircuit: true };
  }
  return next(specifier, context);
}

async function transpile(file, text) {
  const cached = path.join(CACHE, `${createHash('sha256').update(OPTIONS_TAG).update(text).digest('hex')}.js`);
  try {
    return await readFile(cached, 'utf8');
  } catch {
    // not cached yet
  }
  const { default: ts } = await import('typescript');
  const out = ts.transpileModule(text, {
    fileName: file,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: false },
  }).outputText;
  // Written aside and renamed: threads starting at once never read half a file.
  await mkdir(CACHE, { recursive: true });
  const partial = `${cached}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await writeFile(partial, out);
  await rename(partial, cached);
  return out;
}

export async function load(url, context, next) {
  if (!url.endsWith('.ts')) return next(url, context);
  const file = fileURLToPath(url);
  return { format: 'module', source: await transpile(file, await readFile(file, 'utf8')), shortCircuit: true };
}
