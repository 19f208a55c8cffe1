import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI, cliEnv } from '../../helpers/cli.js';
import { signIn } from '../../helpers/sessions.js';
import { useHarness } from '../../helpers/use-harness.js';

// `labstock admin user set-password` reads the password from standard input (needs `npm run build`).
const h = useHarness();

const setPassword = (userId: string, input: string) =>
  spawnSync(process.execPath, [CLI, 'admin', 'user', 'set-password', '--user', userId, '--json'], {
    env: cliEnv(h.database),
    input,
    encoding: 'utf8',
  });

describe('labstock admin user set-password', () => {
  it('sets the password from the first line of standard input; the user can sign in with it', async () => {
    const res = setPassword(h.a.member.id, 'a passphrase from the cli\nignored second line\n');
    expect(res.status, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ id: h.a.member.id, password_set: true });
    expect(res.stdout + res.stderr).not.toContain('a passphrase from the cli');
    const s = await signIn(h, 'member-A@example.org', 'a passphrase from the cli');
    expect(s.body.user.id).toBe(h.a.member.id);
  });

  it('refuses a weak password and an unknown user, with exit code 1', () => {
    const weak = setPassword(h.a.admin.id, 'short\n');
    expect(weak.status).toBe(1);
    expect(weak.stderr).toMatch(/at least 12/);
    const unknown = setPassword(crypto.randomUUID(), 'a passphrase from the cli\n');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/not found/);
  });
});
