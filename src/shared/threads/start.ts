import { Worker } from 'node:worker_threads';

/**
 * Starts a worker thread on the module `name` beside `from` (the caller's import.meta.url), with `data` as its
 * workerData. Compiled (dist/), that is the module's .js file. Run from the TypeScript source (vitest transforms its
 * own modules, not a thread's), the thread starts at ts-entry.mjs, which transpiles the .ts files it imports.
 */
export function startThread(from: string, name: string, data: Record<string, unknown>): Worker {
  if (from.endsWith('.ts')) {
    const entry = new URL(`./${name}.ts`, from).href;
    return new Worker(new URL('./ts-entry.mjs', import.meta.url), { workerData: { ...data, __entry: entry } });
  }
  return new Worker(new URL(`./${name}.js`, from), { workerData: data });
}
