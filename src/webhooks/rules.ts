import { randomBytes } from 'node:crypto';

/** Standard Webhooks secret format: `whsec_` + base64 of 32 random bytes. */
export const generateSigningKey = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** The delivery target must be an absolute http(s) URL without credentials; returns a reason when it is not. */
export function urlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL such as https://example.org/hooks';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must use http or https';
  if (url.username || url.password) return 'must not carry credentials; use the signing key to authenticate deliveries';
  if (!url.hostname) return 'must name a host';
  return null;
}
