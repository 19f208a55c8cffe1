import { createHash, randomBytes } from 'node:crypto';

// Tokens are 32 random bytes, shown once and stored only as a SHA-256 hash. A plain fast hash is right here
// (unlike passwords): the input has 256 bits of entropy, so there is nothing to brute-force.
export const TOKEN_PREFIX = 'lst_';

export const generateToken = (): string => TOKEN_PREFIX + randomBytes(32).toString('base64url');

export const hashToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** last_used_at is written at most once a minute per token, so reads do not each become a write. */
export const TOKEN_TOUCH_INTERVAL_MS = 60_000;

/** Operator tokens (docs/decisions/0004-operators.md) look different, so each kind is looked up in its own table. */
export const OPERATOR_TOKEN_PREFIX = 'lso_';

export const generateOperatorToken = (): string => OPERATOR_TOKEN_PREFIX + randomBytes(32).toString('base64url');
