import { Algorithm, hash, verify } from '@node-rs/argon2';
import { fieldError } from '../shared/errors.js';
import { COMMON_PASSWORDS } from './common-passwords.js';

// Passwords are hashed with argon2id at OWASP's minimum cost (19 MiB, 2 passes, 1 lane): about 70 ms on the
// 2-core machine docs/performance.md describes, cheap enough for sign-in bursts, costly for an offline guesser.
// The PHC string carries its own parameters, so raising them later still verifies old hashes.
const OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;

const RUNS = ['0123456789', '9876543210', 'abcdefghijklmnopqrstuvwxyz', 'qwertyuiopasdfghjklzxcvbnm'];

/** Throws validation_failed on `field` for a password the policy refuses (docs/auth.md); the reasons are named. */
export function checkPasswordPolicy(password: string, email: string | null, field = 'password'): void {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) throw fieldError(field, `must be at least ${MIN_PASSWORD_LENGTH} characters`);
  if (length > MAX_PASSWORD_LENGTH) throw fieldError(field, `must be at most ${MAX_PASSWORD_LENGTH} characters`);
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower)) throw fieldError(field, 'is one of the most common passwords; choose another');
  if (new Set(lower).size === 1) throw fieldError(field, 'must not be one character repeated');
  if (RUNS.some((run) => run.includes(lower) || (run + run).includes(lower)))
    throw fieldError(field, 'must not be a straight run of letters or digits');
  if (email && (lower === email.toLowerCase() || lower === email.toLowerCase().split('@')[0])) {
    throw fieldError(field, 'must not be your e-mail address');
  }
}

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

/** False for a wrong password and for a hash that is not a valid argon2 string. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verified against when the e-mail is unknown or has no password, so that such an answer takes as long as a
// wrong password does and the timing does not tell which e-mails have accounts.
let dummyHash: Promise<string> | null = null;
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hash('labstock-dummy-password-for-timing', OPTIONS);
  await verifyPassword(await dummyHash, password);
  return false;
}
