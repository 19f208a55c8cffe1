import { type components, createLabstockClient, LabstockError, unwrap } from '@labstock/client';

// The one way the application reaches the server: the project's typed client (client/), with the sign-in session
// cookie and the session's CSRF token on every write. No hand-written fetch calls, no private endpoints.

export type AuthSession = components['schemas']['AuthSession'];

let csrfToken: string | undefined;
/** Remembered from the session (GET /auth/session, POST /auth/sign-in) and sent as X-CSRF-Token on writes. */
export const rememberCsrfToken = (token: string | undefined): void => {
  csrfToken = token;
};

export const api = createLabstockClient({ baseUrl: window.location.origin, session: { csrfToken: () => csrfToken } });

export { LabstockError, unwrap };

// A failed call as a person should read it (docs/web.md, "Their words"): a sentence with no API path, no status
// enum in capitals and no request id; the id and the server's own words stay behind "Details" (ErrorNotice).
const STATUS_WORDS: Record<string, string> = {
  CREATED: 'Created',
  APPROVED: 'Approved',
  ORDERED: 'Ordered',
  BACKORDERED: 'Backordered',
  RECEIVED: 'Received',
  CANCELLED: 'Cancelled',
};
const BY_CODE: Record<string, string> = {
  not_found: 'We could not find it: it may have been deleted, or it is not shared with you.',
  unauthorized: 'You are signed out. Sign in again to continue.',
  precondition_failed: 'Someone changed this while you were looking at it. Reload to see the current values.',
  rate_limited: 'Too many requests at once. Wait a moment and try again.',
  service_unavailable: 'The service is busy. Try again in a moment.',
  internal_error: 'Something went wrong on our side. Try again; if it keeps happening, send us the details below.',
};

/** The server's message without API paths and enum capitals ("PUT /inventory-items/{id}", "CREATED"). */
export function inPlainWords(message: string): string {
  return message
    .replace(/\s*(?:with |use )?\b(?:GET|POST|PUT|PATCH|DELETE)\s+\/[^\s,;:)]*/g, '')
    .replace(/\s*\(?\/[a-z-]+\/\{[^}]+\}[^\s,;)]*\)?/g, '')
    .replace(/\b(CREATED|APPROVED|ORDERED|BACKORDERED|RECEIVED|CANCELLED)\b/g, (w) => STATUS_WORDS[w] ?? w)
    .replace(/\bminor units\b/g, 'the smallest coin')
    .replace(/\s+([,.;:])/g, '$1')
    .replace(/:\s*$/, '.')
    .trim();
}

/** A field name as a label: "expiration_date" → "Expiration date", "price.amount" → "Price". */
const fieldLabel = (field: string): string => {
  const last = field.split('.').filter((p) => p !== 'amount')[0] ?? field;
  const words = last.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** A failed call as one sentence for the person (no request id: ErrorNotice shows it under "Details"). */
export function describeError(err: unknown): string {
  if (err instanceof LabstockError) {
    if (BY_CODE[err.code]) return BY_CODE[err.code]!;
    if (err.code === 'invalid_transition' && err.allowed) {
      const next = err.allowed.map((s) => STATUS_WORDS[s] ?? s);
      return `That move is not possible any more: it may have changed meanwhile. ${next.length ? `It can now become ${next.join(', ')}.` : 'Reload to see where it stands.'}`;
    }
    // A plain field ("price") leads its message; a path into a list ("order_request_ids/1") says nothing to a person.
    if (err.errors.length > 0)
      return err.errors.map((e) => `${/^[a-z_.]+$/.test(e.field) ? `${fieldLabel(e.field)} ` : ''}${inPlainWords(e.message)}.`).join(' ');
    return inPlainWords(err.message);
  }
  if (err instanceof TypeError) return 'The server could not be reached. Check your connection and try again.';
  return err instanceof Error ? inPlainWords(err.message) : String(err);
}

/** What support needs, for the "Details" disclosure: the request id, the code and the server's own message. */
export function errorDetails(err: unknown): { label: string; value: string }[] {
  if (!(err instanceof LabstockError)) return err instanceof Error ? [{ label: 'Message', value: err.message }] : [];
  return [
    { label: 'Request id', value: err.request_id },
    { label: 'Code', value: `${err.code} (HTTP ${err.status})` },
    { label: 'Message', value: err.message },
    ...err.errors.map((e) => ({ label: e.field, value: e.message })),
  ].filter((d) => d.value !== '');
}

/** The signed-in session, or null when there is none (GET /auth/session answers `{signed_in: false}`, not an error). */
export async function fetchSession(): Promise<AuthSession | null> {
  const session = await unwrap(api.GET('/auth/session'));
  if (!session.signed_in) {
    rememberCsrfToken(undefined);
    return null;
  }
  rememberCsrfToken(session.csrf_token);
  return session;
}
