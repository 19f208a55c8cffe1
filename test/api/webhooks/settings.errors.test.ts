import { describe, expect, it } from 'vitest';
import {
  h,
  itIsNotFoundWhenUnknownOrDeleted,
  itRejectsMalformedIds,
  itRequiresToken,
  keptWebhook,
  refusedBy,
  snapshotOf,
  useHarness,
} from './_security.js';

// GET/PUT /webhooks/{id}/settings refusals: the standard error body, and the webhook unchanged.

useHarness();
const hook = keptWebhook();

const snapshot = snapshotOf('webhooks');
type Opts = { token?: string | null; id?: string; payload?: unknown; body?: string; contentType?: string; method?: 'GET' | 'PUT' };

async function refused(opts: Opts, status: number, code: string) {
  const method = opts.method ?? 'PUT';
  const headers: Record<string, string> = opts.contentType ? { 'content-type': opts.contentType } : {};
  const body = method === 'GET' ? {} : { payload: opts.body ?? ((opts.payload ?? { format: 'cloudevents' }) as Record<string, unknown>) };
  const send = (token: string | null) => h.call(token, { method, url: `/webhooks/${opts.id ?? hook.id}/settings`, headers, ...body });
  return refusedBy(send, opts.token, snapshot, status, code);
}
const fields = (body: { errors?: { field: string }[] }) => (body.errors ?? []).map((e) => e.field);

describe('PUT /webhooks/{id}/settings errors', () => {
  it.each([
    ['an unknown format', { format: 'xml' }],
    ['a content type instead of a format', { format: 'application/cloudevents+json' }],
    ['a format of the wrong type', { format: 1 }],
    ['null', { format: null }],
    ['no format', {}],
  ])('%s: 422 naming format', async (_label, payload) => {
    expect(fields(await refused({ payload }, 422, 'validation_failed'))).toContain('format');
  });

  it.each(['content_type', 'is_enabled', 'signing_key', 'subject'])('unknown field %s: 422 naming it', async (field) => {
    expect(fields(await refused({ payload: { format: 'cloudevents', [field]: 'x' } }, 422, 'validation_failed'))).toContain(field);
  });

  it('a body that is not an object: 422; malformed JSON: 400; not JSON: 415', async () => {
    for (const body of ['[]', '"cloudevents"', 'null']) await refused({ body, contentType: 'application/json' }, 422, 'validation_failed');
    await refused({ body: '{"format": "cloud', contentType: 'application/json' }, 400, 'invalid_json');
    await refused({ body: 'format=cloudevents', contentType: 'text/plain' }, 415, 'unsupported_media_type');
  });

  itRejectsMalformedIds(['abc', '1'], refused);
  itRequiresToken(refused);
  itIsNotFoundWhenUnknownOrDeleted(refused);
});

describe('GET /webhooks/{id}/settings errors', () => {
  const get = (opts: Opts, status: number, code: string) => refused({ ...opts, method: 'GET' }, status, code);
  itRejectsMalformedIds(['abc', '1'], get);
  itRequiresToken(get);
  itIsNotFoundWhenUnknownOrDeleted(get);

  it('after all of that the webhook still delivers the default format', async () => {
    const res = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${hook.id}/settings` });
    expect(res.json()).toEqual({ format: 'json' });
  });
});
