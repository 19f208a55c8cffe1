import { describe, expect, it } from 'vitest';
import { h, keptWebhook, useHarness } from './_security.js';

// GET/PUT /webhooks/{id}/settings: the delivery format, json (the default) or cloudevents, kept apart from the
// contract's Webhook resource, which stays exactly as it was (docs/webhooks.md, "Format").

useHarness();
const hook = keptWebhook({ name: 'Formats', url: 'https://hooks.example.org/formats' });

const settings = (token = h.a.admin.token) => h.call(token, { method: 'GET', url: `/webhooks/${hook.id}/settings` });
const put = (payload: Record<string, unknown>) => h.call(h.a.admin.token, { method: 'PUT', url: `/webhooks/${hook.id}/settings`, payload });
const stored = async () =>
  (await h.deps.db.selectFrom('webhooks').select('content_type').where('id', '=', hook.id).executeTakeFirstOrThrow()).content_type;

describe('GET/PUT /webhooks/{id}/settings', () => {
  it('a new webhook delivers the contract’s JSON: format json', async () => {
    const res = await settings();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ format: 'json' });
    expect(await stored()).toBe('application/json');
  });

  it('PUT cloudevents answers and keeps it; GET reads it back; the Webhook resource is unchanged', async () => {
    const res = await put({ format: 'cloudevents' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ format: 'cloudevents' });
    expect((await settings()).json()).toEqual({ format: 'cloudevents' });
    expect(await stored()).toBe('application/cloudevents+json');
    const got = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${hook.id}` });
    expect(got.json()).toEqual(hook);
    const [listed] = (await h.call(h.a.admin.token, { method: 'GET', url: '/webhooks' })).json() as Record<string, unknown>[];
    expect(Object.keys(listed!).sort()).toEqual(Object.keys(hook).sort());
  });

  it('setting the same format again is 200 and changes nothing', async () => {
    const before = await h.deps.db.selectFrom('webhooks').selectAll().where('id', '=', hook.id).executeTakeFirstOrThrow();
    const res = await put({ format: 'cloudevents' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await h.deps.db.selectFrom('webhooks').selectAll().where('id', '=', hook.id).executeTakeFirstOrThrow()).toEqual(before);
  });

  it('PUT json switches back', async () => {
    expect((await put({ format: 'json' })).json()).toEqual({ format: 'json' });
    expect((await settings()).json()).toEqual({ format: 'json' });
    expect(await stored()).toBe('application/json');
  });

  it('the deprecated content_type of PUT /webhooks/{id} still sets the same thing, and the settings read it', async () => {
    const res = await h.call(h.a.admin.token, {
      method: 'PUT',
      url: `/webhooks/${hook.id}`,
      payload: { content_type: 'application/cloudevents+json' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(Object.keys(hook).sort());
    expect((await settings()).json()).toEqual({ format: 'cloudevents' });
    await put({ format: 'json' });
  });

  it('is published in the OpenAPI document, with the deprecated alias marked', async () => {
    const doc = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const path = doc.paths['/webhooks/{id}/settings'];
    expect(Object.keys(path).sort()).toEqual(expect.arrayContaining(['get', 'put']));
    expect(JSON.stringify(doc.components.schemas.WebhookSettings.properties.format)).toMatch(/"json".*"cloudevents"/);
    const putBody = doc.paths['/webhooks/{id}'].put.requestBody.content['application/json'].schema;
    expect(putBody.properties.content_type.deprecated).toBe(true);
    expect(Object.keys(doc.components.schemas.Webhook.properties)).not.toContain('format');
  });
});
