import { type CloudEvent, HTTP } from 'cloudevents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectNoSeriousAxeViolations, expectNoSidewaysScroll } from '../helpers/axe.js';
import { type BrowserHarness, startBrowserHarness } from '../helpers/browser.js';
import { Receiver } from '../helpers/receiver.js';

/** The page's getComputedStyle, typed here (the tests compile without the DOM's types). */
type Styled = { getComputedStyle(element: unknown): { textTransform: string } };

// An org admin sets up a webhook in the web application and operates it against a real receiver on 127.0.0.1,
// delivered by a real worker (as test/delivery/end-to-end.test.ts runs one); a member may not reach the pages.

let h: BrowserHarness;
let receiver: Receiver;
beforeAll(async () => {
  receiver = await new Receiver().start();
  // The handshake is answered (verified), and every POST with a body the log shows as the response excerpt.
  receiver.respond = (req) =>
    req.method === 'OPTIONS'
      ? { status: 200, headers: { 'WebHook-Allowed-Origin': '*' } }
      : { status: 200, body: `receiver took POST ${receiver.posts.length}` };
  h = await startBrowserHarness({ WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32' });
  await h.startWorker();
});
afterAll(async () => {
  await h?.close();
  await receiver?.stop();
});

const changeInstance = async (quantity: string) => {
  const lab = h.a.migratedLab;
  const put = await h.call(h.a.admin.token, {
    method: 'PUT',
    url: `/inventory-items/${lab.itemId}/instances/${lab.instanceIds[0]}`,
    payload: { quantity },
  });
  expect(put.statusCode, put.body).toBe(200);
};

describe('journey: an org admin sets up a webhook and operates it', () => {
  it('creates it with chosen kinds, sees a change delivered, redelivers, rotates the key, pings, replays, sends CloudEvents, edits, disables, deletes', async () => {
    const { page, context } = await h.newPage();
    await h.signIn(page, 'admin-A@example.org', '/app/inventory');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByTestId('no-webhooks').waitFor();

    await page.getByRole('button', { name: 'New webhook' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('ELN sync');
    await page.getByRole('textbox', { name: 'Receiver URL' }).fill(receiver.url);
    await page.getByRole('combobox', { name: 'Events of' }).click();
    await page.getByRole('option', { name: 'Lab: Migrated lab A' }).click();
    await page.getByRole('checkbox', { name: 'Every event, including kinds added later' }).uncheck();
    expect(await page.getByTestId('kinds-picked').innerText()).toBe('Pick at least one kind, or every event.');
    expect(await page.getByRole('button', { name: 'Create webhook' }).isDisabled()).toBe(true);
    await page.getByRole('checkbox', { name: 'inventory-item.updated' }).check();
    await page.getByRole('checkbox', { name: 'order-request.ordered' }).check();
    await expectNoSeriousAxeViolations(page);
    await page.getByRole('button', { name: 'Create webhook' }).click();

    const signingKey = (await page.getByTestId('signing-key').innerText()).trim();
    expect(signingKey).toMatch(/^whsec_/);
    const [listed] = (await h.call(h.a.admin.token, { method: 'GET', url: '/webhooks' })).json();
    expect(listed).toMatchObject({
      name: 'ELN sync',
      url: receiver.url,
      signing_key: signingKey,
      event_types: ['com.labstock.inventory-item.updated', 'com.labstock.order-request.ordered'],
    });
    const webhookId = listed.id as string;
    await page
      .getByTestId('webhooks-table')
      .getByRole('row', { name: /ELN sync/ })
      .waitFor();

    // The webhook's page: the key is not on it, and the handshake's result arrives without a reload.
    await page.getByRole('link', { name: 'Open ELN sync' }).click();
    await page.waitForURL(`**/app/webhooks/${webhookId}`);
    await page.getByTestId('verification').getByText('Verified').waitFor({ timeout: 10_000 });
    expect(await page.content()).not.toContain(signingKey);

    // A change through the API is delivered; the log shows it with the receiver's answer.
    const changedAt = Date.now();
    await changeInstance('7');
    await receiver.waitFor(1);
    const first = receiver.posts[0]!;
    expect((Receiver.verify(first, signingKey) as { type: string }).type).toBe('com.labstock.inventory-item.updated');
    const rows = page.getByTestId('delivery-row');
    await expect
      .poll(async () => (await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${webhookId}/deliveries` })).json()[0]?.status)
      .toBe('succeeded');
    await page.getByRole('button', { name: 'Refresh' }).click();
    // The status in words, as written (a badge does not turn it into capitals).
    const status = rows.first().getByTestId('delivery-status');
    await status.getByText('Succeeded', { exact: true }).waitFor();
    expect(await status.evaluate((el) => (globalThis as unknown as Styled).getComputedStyle(el).textTransform)).toBe('none');
    expect(await rows.first().innerText()).toContain('inventory-item.updated');
    expect(await rows.first().getByTestId('last-answer').innerText()).toContain('200 success');
    expect(await rows.first().innerText()).toContain('receiver took POST 1');

    // Redeliver: a second delivery of the same event (same webhook-id) reaches the receiver and joins the log.
    await rows.first().getByRole('button', { name: 'Redeliver inventory-item.updated' }).click();
    await receiver.waitFor(2);
    expect(receiver.posts[1]!.headers['webhook-id']).toBe(first.headers['webhook-id']);
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
    await rows.first().getByText('receiver took POST 2').waitFor({ timeout: 10_000 });

    // Rotate: the new key is shown once and differs; the next delivery (a ping) verifies with it.
    await page.getByRole('button', { name: 'Rotate signing key' }).click();
    const newKey = (await page.getByTestId('signing-key').innerText()).trim();
    expect(newKey).toMatch(/^whsec_/);
    expect(newKey).not.toBe(signingKey);
    expect((await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${webhookId}` })).json().signing_key).toBe(newKey);

    await page.getByRole('button', { name: 'Send a test event' }).click();
    await page.getByTestId('ping-queued').waitFor();
    await receiver.waitFor(3);
    expect((Receiver.verify(receiver.posts[2]!, newKey) as { type: string }).type).toBe('com.labstock.webhook.ping');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(3);
    await rows.first().getByText('webhook.ping').waitFor();
    await rows.first().getByTestId('delivery-status').getByText('succeeded').waitFor({ timeout: 10_000 });

    // Replay from a second before the change (the seeded data's events are older): the change again, not the ping.
    const local = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
    await page.getByRole('textbox', { name: /^From/ }).fill(local(new Date(changedAt - 1000)));
    await page.getByRole('textbox', { name: /^To/ }).fill(local(new Date(Date.now() + 60_000)));
    await page.getByRole('button', { name: 'Replay', exact: true }).click();
    expect(await page.getByTestId('replay-result').innerText()).toBe('1 event scheduled again.');
    await receiver.waitFor(4);
    expect(receiver.posts[3]!.headers['webhook-id']).toBe(first.headers['webhook-id']);

    await expectNoSeriousAxeViolations(page);

    // Format: CloudEvents chosen in words; the next delivery is structured mode, which the cloudevents SDK reads.
    const format = page.getByRole('form', { name: 'Format' });
    expect(await format.getByRole('radio', { name: 'Standard JSON' }).isChecked()).toBe(true);
    await format.getByRole('radio', { name: 'CloudEvents' }).check();
    await format.getByRole('button', { name: 'Save format' }).click();
    await page.getByTestId('webhook-format').getByText('CloudEvents format', { exact: false }).waitFor();
    expect(await format.getByRole('button', { name: 'Save format' }).isDisabled()).toBe(true);
    const settings = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${webhookId}/settings` });
    expect(settings.json()).toEqual({ format: 'cloudevents' });
    await changeInstance('8');
    await receiver.waitFor(5);
    const structured = receiver.posts[4]!;
    expect(structured.headers['content-type']).toBe('application/cloudevents+json');
    const event = HTTP.toEvent({ headers: structured.headers as Record<string, string>, body: structured.body }) as CloudEvent<unknown>;
    expect([event.type, event.subject, event.id]).toEqual([
      'com.labstock.inventory-item.updated',
      h.a.migratedLab.itemId,
      structured.headers['webhook-id'],
    ]);
    expect(() => Receiver.verify(structured, newKey)).not.toThrow();
    await expectNoSeriousAxeViolations(page);

    // Edit: a new name and every event kind; then disable it (no ping then), at a phone's width; then delete it.
    const stored = async () => (await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${webhookId}` })).json();
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('ELN sync, all events');
    await page.getByRole('checkbox', { name: 'Every event, including kinds added later' }).check();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('heading', { name: 'ELN sync, all events' }).waitFor();
    expect(await stored()).toMatchObject({ name: 'ELN sync, all events', event_types: [], url: receiver.url, is_verified: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('button', { name: 'Enable' }).waitFor();
    expect(await page.getByRole('button', { name: 'Send a test event' }).isDisabled()).toBe(true);
    expect((await stored()).is_enabled).toBe(false);
    await expectNoSidewaysScroll(page);
    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('button', { name: 'Delete the webhook and its log' }).click();
    await page.getByTestId('no-webhooks').waitFor();
    expect((await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${webhookId}` })).statusCode).toBe(404);
    await context.close();
    expect(h.consoleErrors).toEqual([]);
  });

  it("a member has no webhooks entry and is told they may not; another organization's admin finds nothing", async () => {
    const created = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/webhooks',
      payload: { organization_id: h.a.orgId, name: 'Members may not see', url: receiver.url },
    });
    expect(created.statusCode, created.body).toBe(201);
    const webhookId = created.json().id as string;
    const member = await h.newPage();
    await h.signIn(member.page, 'member-A@example.org', '/app/webhooks');
    await member.page.getByTestId('admins-only').waitFor();
    const nav = member.page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Settings' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Webhooks' }).count()).toBe(0);
    await member.page.goto(`/app/webhooks/${webhookId}`);
    await member.page.getByTestId('admins-only').waitFor();
    expect(await member.page.content()).not.toContain(receiver.url);
    // The server is what refused: the same calls answer 403 to the member's token.
    expect((await h.call(h.a.member.token, { method: 'GET', url: '/webhooks' })).statusCode).toBe(403);
    expect((await h.call(h.a.member.token, { method: 'GET', url: `/webhooks/${webhookId}` })).statusCode).toBe(403);
    await member.context.close();

    const other = await h.newPage();
    await h.signIn(other.page, 'admin-B@example.org', `/app/webhooks/${webhookId}`);
    await other.page.getByTestId('not-found').waitFor();
    await other.context.close();
    // Chromium logs the refused loads (403, and B's 404); nothing else went wrong.
    expect(h.consoleErrors.filter((m) => !/status of 40[34]/.test(m))).toEqual([]);
  });
});
