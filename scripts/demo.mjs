// `npm run demo`: a fresh embedded database, the demo organization, then the server on port 8080.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'dist', 'cli', 'main.js');
const file = path.join(root, 'data', 'demo.sqlite');
for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });

const env = {
  ...process.env,
  DATABASE_URL: file,
  PORT: process.env.PORT ?? '8080',
  // The browser signs in only from APP_URL's origin (docs/auth.md): the printed links use the same address.
  APP_URL: process.env.APP_URL ?? `http://127.0.0.1:${process.env.PORT ?? '8080'}`,
  // The demo lets webhooks reach receivers on this machine; production keeps loopback closed.
  WEBHOOK_ALLOWED_CIDRS: process.env.WEBHOOK_ALLOWED_CIDRS ?? '127.0.0.0/8,::1/128',
};
execFileSync(process.execPath, [cli, 'demo'], { stdio: 'inherit', env });
console.log(`\nDemo database: ${path.relative(process.cwd(), file)}; webhooks may target ${env.WEBHOOK_ALLOWED_CIDRS} (demo only).\n`);
const server = spawn(process.execPath, [cli, 'serve'], { stdio: 'inherit', env });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code) => process.exit(code ?? 0));
