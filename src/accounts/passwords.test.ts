import { describe, expect, it } from 'vitest';
import { checkPasswordPolicy, hashPassword, verifyPassword } from './passwords.js';
import { delayAfter, THROTTLE } from './throttle.js';

describe('password policy', () => {
  it('accepts a long passphrase and refuses short, common, repeated, sequential and e-mail passwords', () => {
    expect(() => checkPasswordPolicy('correct horse battery staple', 'ada@example.org')).not.toThrow();
    for (const bad of ['elevenchars', 'Password1234', 'QWERTY123456', 'zzzzzzzzzzzz', '234567890123', 'mnopqrstuvwx', 'ada.lovelace1']) {
      expect(() => checkPasswordPolicy(bad, 'ada.lovelace1@example.org'), bad).toThrow();
    }
    expect(() => checkPasswordPolicy(`${'x'.repeat(11)}é`, null)).not.toThrow();
    expect(() => checkPasswordPolicy('a'.repeat(257), null)).toThrow(/at most 256/);
  });

  it('hashes with argon2id and verifies only the right password', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(hash, 'correct horse battery staple')).toBe(true);
    expect(await verifyPassword(hash, 'correct horse battery stapl')).toBe(false);
    expect(await verifyPassword('not a hash', 'anything')).toBe(false);
  });
});

describe('throttle delays', () => {
  it('are free up to the threshold, then double up to the cap', () => {
    const free = THROTTLE.accountFreeFailures;
    expect(delayAfter(free - 1, free)).toBe(0);
    expect(delayAfter(free, free)).toBe(1000);
    expect(delayAfter(free + 1, free)).toBe(2000);
    expect(delayAfter(free + 3, free)).toBe(8000);
    expect(delayAfter(free + 100, free)).toBe(THROTTLE.maxDelayMs);
  });
});
