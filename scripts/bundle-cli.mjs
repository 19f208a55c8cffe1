// Bundles the `labstock` command (dist/cli/main.js, after tsc) into a few files: loading ~990 modules one by one
// cost each process 0.45-0.5 s of CPU, the bundle 0.13 s for a typical admin command (docs/performance.md, Test
// suite time). Each command's modules are a chunk of their own, loaded by its action (src/cli/admin.ts).
//
// `serve`, `worker` and their imports stay the files tsc wrote (dist/cli/serve.js and what it imports): they start
// worker threads from files beside them (src/shared/threads/start.ts), read the web application and the changelog by
// paths relative to their own files, and start once per deployment, not once per command.
// The chunks sit beside main.js (dist/cli/bundle-*.js), the depth at which src/shared/version.ts finds package.json.
// Native modules (better-sqlite3, argon2) and pg's optional native binding are loaded from node_modules as before.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const dir = fileURLToPath(new URL('../dist/cli/', import.meta.url));
const serve = `${dir}serve.js`;

// The input is what tsc wrote: a second run on its own output would bundle the bundle, whose chunks it deletes.
if (/from "\.\/bundle-/.test(readFileSync(`${dir}main.js`, 'utf8'))) {
  console.error('dist/cli/main.js is bundled already: run `tsc -p tsconfig.build.json --noCheck` first (npm run build does)');
  process.exit(1);
}
// The chunks of an earlier build, and tsc's source map of main.js, which no longer describes it.
for (const f of readdirSync(dir)) if (/^bundle-.*\.js$|^main\.js\.map$/.test(f)) rmSync(`${dir}${f}`);

await build({
  input: { main: `${dir}main.js` },
  platform: 'node',
  logLevel: 'warn',
  external: (id) => id === './serve.js' || id === serve || /^(@node-rs\/argon2|better-sqlite3|pg-native)(\/|$)/.test(id),
  output: {
    dir,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'bundle-[name]-[hash].js',
  },
});
