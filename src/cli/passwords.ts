import type { Command } from 'commander';
import { systemActor } from '../shared/actor.js';
import { withContext } from './context.js';
import { emit } from './output.js';

// `labstock admin user set-password`: the password is read from standard input (its first line), never from an
// argument, so it stays out of the shell history and the process list.

async function readStdinLine(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Password (input is shown; pipe it in to avoid that): ');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    if (Buffer.concat(chunks).includes(10)) break;
  }
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
}

export function registerSetPassword(user: Command): void {
  user
    .command('set-password')
    .description('set the sign-in password of a user, read from standard input (at least 12 characters, not a common one)')
    .requiredOption('--user <id>', 'user id')
    .option('--json', 'print JSON')
    .action((o: { user: string; json?: boolean }) =>
      withContext(async ({ handle }) => {
        const password = await readStdinLine();
        const { setPassword } = await import('../accounts/auth.js');
        await setPassword(handle.db, systemActor('cli'), o.user, password);
        emit(!!o.json, { id: o.user, password_set: true }, () => `user ${o.user} can now sign in with that password`);
      }),
    );
}
