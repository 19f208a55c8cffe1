import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../helpers/harness.js';
import { LINK_RE, NEW_PASSWORD } from '../../helpers/links.js';
import { startSmtp, type TestSmtp } from '../../helpers/smtp.js';

// docs/product.md §10, end to end over real HTTP and real SMTP: a person invited by an org admin sets a password,
// signs in, creates a token in their settings and uses it.

let h: Harness;
let smtp: TestSmtp;
let base: string;
beforeAll(async () => {
  smtp = await startSmtp();
  h = await startHarness({ SMTP_URL: smtp.url });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await h?.close();
  await smtp?.close();
});

describe('an invited person', () => {
  it('sets a password from the mailed link, signs in, creates a token in their settings and uses it', async () => {
    // The org admin invites (with an access token).
    const invited = await fetch(`${base}/organization/users`, {
      method: 'POST',
      headers: { 'access-token': h.a.admin.token, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ines@example.org', role: 'member' }),
    });
    expect(invited.status).toBe(201);
    const user = (await invited.json()) as any;
    expect(user.invitation.mailed).toBe(true);

    // The link arrives by mail; the page would take the secret from it.
    const [mail] = await smtp.waitFor(1);
    expect(mail!.to).toEqual(['ines@example.org']);
    const [, kind, secret] = LINK_RE.exec(mail!.text)!;
    expect(kind).toBe('invitations');
    const look = await fetch(`${base}/auth/invitations/${secret}`);
    expect(await look.json()).toMatchObject({ email: 'ines@example.org', organization: { name: 'Org A' }, existing_account: false });

    // Accepting sets the name and password and signs in.
    const accepted = await fetch(`${base}/auth/invitations/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://labstock.test' },
      body: JSON.stringify({ token: secret, first_name: 'Ines', last_name: 'Ibis', password: NEW_PASSWORD }),
    });
    expect(accepted.status).toBe(200);
    expect(((await accepted.json()) as any).user).toMatchObject({ id: user.id, first_name: 'Ines' });

    // Later, a fresh sign-in with the password chosen.
    const signedIn = await fetch(`${base}/auth/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ines@example.org', password: NEW_PASSWORD }),
    });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers
      .getSetCookie()
      .find((c) => c.startsWith('labstock_session='))!
      .split(';')[0]!;
    const { csrf_token } = (await signedIn.json()) as any;

    // Settings: a token of their own, made with the session.
    const created = await fetch(`${base}/user/tokens`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': csrf_token, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'my script' }),
    });
    expect(created.status).toBe(201);
    const { token } = (await created.json()) as any;

    // The token works on its own, as this person in this organization.
    const me = await fetch(`${base}/user`, { headers: { 'access-token': token } });
    expect(me.status).toBe(200);
    expect(await me.json()).toEqual({ id: user.id, first_name: 'Ines', last_name: 'Ibis', email: 'ines@example.org' });
    const labs = await fetch(`${base}/labs`, { headers: { authorization: `Bearer ${token}` } });
    expect(labs.status).toBe(200);
    expect(await labs.json()).toEqual([]);

    // And the link is spent.
    expect((await fetch(`${base}/auth/invitations/${secret}`)).status).toBe(404);
  });
});
