// The entry of a worker thread started from the TypeScript source (src/shared/threads.ts): registers the
// transpiling hooks (ts-hooks.mjs), then imports the thread's real module, named in workerData.
import { register } from 'node:module';
import { workerData } from 'node:worker_threads';

register('./ts-hooks.mjs', import.meta.url);
await import(workerData.__entry);
