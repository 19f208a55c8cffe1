import { describe, expect, it } from 'vitest';
import { aHook, bHook, h, snapshotOf, useHarness, webhookSecurityCases } from './_security.js';

// Only organization admins rotate keys (members 403, no key in the answer); another organization's webhook is
// 404, never 403, and its key stays. Nothing changes after any refusal.

useHarness({ b: 'organization' });

const snapshot = snapshotOf('webhooks');
const rotate = (token: string, id: string) => h.call(token, { method: 'POST', url: `/webhooks/${id}/rotate-secret` });

describe('POST /webhooks/{id}/rotate-secret security', () => {
  webhookSecurityCases(
    { call: rotate, snapshot },
    {
      members: 'members get 403 and no key; the key is unchanged',
      foreign: "another organization's webhook: 404 for A's admin and members; B's key unchanged and not returned",
      likeMissing: "B's id answers exactly like an id that exists nowhere",
    },
  );

  it('control: each admin rotates their own, touching only that row', async () => {
    const bBefore = await h.deps.db.selectFrom('webhooks').selectAll().where('id', '=', bHook.id).executeTakeFirstOrThrow();
    const res = await rotate(h.a.admin.token, aHook.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().signing_key).not.toBe(aHook.signing_key);
    expect(await h.deps.db.selectFrom('webhooks').selectAll().where('id', '=', bHook.id).executeTakeFirstOrThrow()).toEqual(bBefore);
    expect((await rotate(h.b.admin.token, bHook.id)).statusCode).toBe(200);
  });
});
