import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultAppUrl, loadConfig } from '../../../src/shared/config.js';
import { expectError } from '../../helpers/errors.js';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { givePassword, PASSWORD, signIn, withSession } from '../../helpers/sessions.js';

// With APP_URL unset, `labstock serve` prints http://127.0.0.1:8080 and people also type http://localhost:8080:
// a browser signs in at either (README.md, Configuration). A refusal says which APP_URL would allow the origin.

const signInFrom = (h: Harness, origin: string) =>
  h.app.inject({
    method: 'POST',
    url: '/auth/sign-in',
    payload: { email: 'admin-A@example.org', password: PASSWORD },
    headers: { origin },
  });

describe('APP_URL unset: both loopback spellings of the printed address', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ APP_URL: '', EVENT_SOURCE: 'https://labstock.test' });
    await givePassword(h, h.a.admin.id);
  });
  afterAll(() => h?.close());

  it('APP_URL defaults to the address serve listens on and prints', () => {
    expect(h.config.appUrl).toBe('http://127.0.0.1:8080');
  });

  for (const origin of ['http://127.0.0.1:8080', 'http://localhost:8080', 'http://[::1]:8080']) {
    it(`signs in from ${origin}, and the cookie works from there on a write without the CSRF token`, async () => {
      const s = await signIn(h, 'admin-A@example.org', PASSWORD, {}, { origin });
      const res = await withSession(
        h,
        s,
        { method: 'PUT', url: `/inventory-items/${h.a.legacyLab.itemId}`, payload: { quantity: '7' }, headers: { origin } },
        { csrf: false },
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().quantity).toBe('7');
    });
  }

  it('refuses another port or host, naming the APP_URL that would allow it', async () => {
    const body = expectError(await signInFrom(h, 'http://localhost:9999'), 403, 'csrf_failed');
    expect(body.message).toContain('APP_URL=http://localhost:9999');
    const evil = expectError(await signInFrom(h, 'https://evil.example'), 403, 'csrf_failed');
    expect(evil.message).toContain('http://127.0.0.1:8080');
  });
});

describe('APP_URL set: only its origin', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ APP_URL: 'http://labstock.test' });
    await givePassword(h, h.a.admin.id);
  });
  afterAll(() => h?.close());

  it('refuses both loopback spellings, saying what to set', async () => {
    for (const origin of ['http://127.0.0.1:8080', 'http://localhost:8080']) {
      const body = expectError(await signInFrom(h, origin), 403, 'csrf_failed');
      expect(body.message).toContain(`APP_URL=${origin}`);
      expect(body.message).toContain('http://labstock.test');
    }
    expect((await signInFrom(h, 'http://labstock.test')).statusCode).toBe(200);
  });
});

describe('the default APP_URL', () => {
  it('follows HOST and PORT; a wildcard HOST is named localhost', () => {
    expect(defaultAppUrl('127.0.0.1', 9000)).toBe('http://127.0.0.1:9000');
    expect(defaultAppUrl('0.0.0.0', 9000)).toBe('http://localhost:9000');
    expect(defaultAppUrl('::', 9000)).toBe('http://localhost:9000');
    expect(defaultAppUrl('::1', 9000)).toBe('http://[::1]:9000');
    const config = loadConfig({ PORT: '9000', HOST: '0.0.0.0' });
    expect(config.appOrigins).toEqual(['http://localhost:9000', 'http://127.0.0.1:9000', 'http://[::1]:9000']);
    expect(loadConfig({ APP_URL: 'https://lab.example.org/' }).appOrigins).toEqual(['https://lab.example.org']);
  });
});
