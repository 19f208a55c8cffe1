import { describe, expect, it } from 'vitest';
import { aHook, bHook, h, itHidesForeign, useHarness, webhookSecurityCases } from './_security.js';

// A webhook's settings are managed like the webhook: organization admins only (members 403); another organization's
// webhook is 404 for everyone of A (never 403), answered like an id that exists nowhere, and left unchanged.

useHarness({ b: 'organization', bUrl: 'https://hooks.example.org/b-secret-path' });

const rowOf = (id: string) => h.deps.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const get = (token: string, id: string) => h.call(token, { method: 'GET', url: `/webhooks/${id}/settings` });
const put = (token: string, id: string) =>
  h.call(token, { method: 'PUT', url: `/webhooks/${id}/settings`, payload: { format: 'cloudevents' } });

describe('GET /webhooks/{id}/settings security', () => {
  webhookSecurityCases(
    { call: get, leaks: () => [bHook.url] },
    {
      members: 'a member of the organization gets 403',
      foreign: "another organization's webhook: 404 for everyone of A, nothing of it in the answer",
      likeMissing: "B's id answers exactly like an id that exists nowhere",
    },
  );
});

describe('PUT /webhooks/{id}/settings security', () => {
  webhookSecurityCases(
    { call: put, snapshot: () => Promise.all([rowOf(aHook.id), rowOf(bHook.id)]), leaks: () => [bHook.url] },
    {
      members: 'a member of the organization gets 403, and the format stays',
      foreign: "another organization's webhook: 404 for everyone of A, and it stays json",
      likeMissing: "B's id answers exactly like an id that exists nowhere",
    },
  );

  itHidesForeign("B's admin cannot read or set A's webhook settings", {
    call: [get, put],
    tokens: () => [h.b.admin.token],
    id: () => aHook.id,
    leaks: () => [aHook.signing_key, aHook.url],
  });

  it("B's admin sets B's own (control: the id is real); A's settings are untouched", async () => {
    const res = await put(h.b.admin.token, bHook.id);
    expect(res.statusCode, res.body).toBe(200);
    expect((await get(h.b.admin.token, bHook.id)).json()).toEqual({ format: 'cloudevents' });
    expect((await get(h.a.admin.token, aHook.id)).json()).toEqual({ format: 'json' });
  });
});
