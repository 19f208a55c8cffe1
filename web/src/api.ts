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

/** A failed call as a person should read it: the server's message, and its request id to quote. */
export function describeError(err: unknown): string {
  if (err instanceof LabstockError) return `${err.message}${err.request_id ? ` (request ${err.request_id})` : ''}`;
  return err instanceof Error ? err.message : String(err);
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
