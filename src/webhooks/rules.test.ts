import { describe, expect, it } from 'vitest';
import { generateSigningKey, urlProblem } from './rules.js';

describe('webhook rules', () => {
  it('makes whsec_ keys of 32 random bytes', () => {
    const a = generateSigningKey();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(generateSigningKey()).not.toBe(a);
  });

  it('accepts http(s) URLs and explains what it refuses', () => {
    expect(urlProblem('https://example.org/hook?x=1')).toBeNull();
    expect(urlProblem('ftp://example.org/')).toMatch(/http/);
    expect(urlProblem('not a url')).toMatch(/absolute URL/);
    expect(urlProblem('https://user:pw@example.org/')).toMatch(/credentials/);
  });
});
