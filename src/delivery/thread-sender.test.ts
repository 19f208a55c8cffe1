import { describe, expect, it } from 'vitest';
import { describeError } from './thread-sender.js';

describe('describeError (what the delivery thread logs of a failure)', () => {
  it('keeps the kind and the words, drops URLs (credentials, tokens) and signing keys', () => {
    const err = new TypeError('fetch https://user:pw@hooks.example/in?token=abc failed; key whsec_c2VjcmV0IGtleQ== rejected');
    const text = describeError(err);
    expect(text).toBe('TypeError: fetch [url] failed; key whsec_[redacted] rejected');
    expect(text).not.toContain('pw@');
    expect(text).not.toContain('token=abc');
    expect(text).not.toContain('c2VjcmV0');
  });

  it('describes what is not an Error', () => {
    expect(describeError('boom at http://10.0.0.1/x')).toBe('Error: boom at [url]');
    expect(describeError(null)).toBe('Error: null');
  });
});
