// Runs shell commands at once and fails if any fails: `node scripts/parallel.mjs 'cmd one' 'cmd two'`.
// `npm test` type-checks and builds this way (each of tsc's runs uses one core; CI has two). Each command's output
// is printed whole when it ends, so the log reads as if they had run one after another.
import { spawn } from 'node:child_process';

const commands = process.argv.slice(2);
if (commands.length === 0) {
  console.error('usage: node scripts/parallel.mjs "command" ["command" …]');
  process.exit(2);
}

const runs = commands.map(
  (command) =>
    new Promise((resolve) => {
      const started = Date.now();
      const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
      const output = [];
      child.stdout.on('data', (chunk) => output.push(chunk));
      child.stderr.on('data', (chunk) => output.push(chunk));
      child.on('close', (code, signal) => {
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        process.stdout.write(`> ${command} (${seconds} s${code === 0 ? '' : `, failed: ${signal ?? `exit ${code}`}`})\n`);
        process.stdout.write(Buffer.concat(output));
        resolve(code === 0);
      });
    }),
);
const ok = (await Promise.all(runs)).every(Boolean);
process.exit(ok ? 0 : 1);
