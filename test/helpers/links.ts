import { expect } from 'vitest';
import type { Harness } from './harness.js';

// One-time links (docs/auth.md): their secret is the last segment of the URL the API returns or mails.

export const LINK_RE = /http:\/\/labstock\.test\/app\/(invitations|password-reset)\/([\w-]{43})/;

export function secretOf(url: string): string {
  const m = LINK_RE.exec(url);
  expect(m, url).not.toBeNull();
  return m![2]!;
}

/** POST /organization/users as org A's admin; the answer's body. */
export async function invite(h: Harness, email: string, extra: Record<string, unknown> = {}, token = h.a.admin.token) {
  const res = await h.call(token, { method: 'POST', url: '/organization/users', payload: { email, ...extra } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Moves a link's expiry into the past, as time passing would (the only way short of waiting 7 days). */
export async function expireLinks(h: Harness, userId: string): Promise<void> {
  await h.deps.db
    .updateTable('user_links')
    .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
    .where('user_id', '=', userId)
    .execute();
}

export const NEW_PASSWORD = 'plum orchard at dawn 42';

/** The user's reset links (POST /auth/password-reset makes them after answering, so tests wait for them). */
export async function waitForResetLinks(h: Harness, userId: string, count: number, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await h.deps.db
      .selectFrom('user_links')
      .selectAll()
      .where('user_id', '=', userId)
      .where('kind', '=', 'password_reset')
      .execute();
    if (rows.length >= count || Date.now() > deadline) return rows;
    await new Promise((r) => setTimeout(r, 25));
  }
}
