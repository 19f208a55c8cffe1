import { describe, expect, it } from 'vitest';
import { h, itRequiresToken, keptWebhook, refusedBy, useHarness } from './_security.js';

// PUT /webhooks/{id} refusals: the standard error body, and the stored webhook unchanged.

useHarness();
const hook = keptWebhook({ name: 'Keep', event_types: ['order-request.*'] });

const row = () => h.deps.db.selectFrom('webhooks').selectAll().where('id', '=', hook.id).executeTakeFirstOrThrow();

async function refused(
  opts: { payload?: unknown; body?: string; contentType?: string; token?: string | null; id?: string },
  status: number,
  code: string,
) {
  const headers: Record<string, string> = {};
  if (opts.contentType) headers['content-type'] = opts.contentType;
  const payload = opts.body ?? (opts.payload as Record<string, unknown>);
  return refusedBy(
    (token) => h.call(token, { method: 'PUT', url: `/webhooks/${opts.id ?? hook.id}`, headers, payload }),
    opts.token,
    row,
    status,
    code,
  );
}
const fields = (body: { errors?: { field: string }[] }) => (body.errors ?? []).map((e) => e.field);

describe('PUT /webhooks/{id} errors', () => {
  it.each(['organization_id', 'lab_id', 'is_verified', 'signing_key', 'id', 'secret', 'events'])(
    'unknown field %s: 422 naming it',
    async (field) => {
      const body = await refused(
        { payload: { is_enabled: false, [field]: field === 'is_verified' ? true : 'x' } },
        422,
        'validation_failed',
      );
      expect(fields(body)).toContain(field);
    },
  );

  it.each([
    ['ftp', 'ftp://example.org/hook'],
    ['not a url', 'not a url'],
    ['credentials', 'https://user:pw@example.org/hook'],
    ['empty', ''],
    ['null', null],
  ])('bad url (%s): 422 naming url', async (_label, url) => {
    expect(fields(await refused({ payload: { url } }, 422, 'validation_failed'))).toContain('url');
  });

  it('an unknown event type: 422 whose message lists the valid ones', async () => {
    const body = await refused({ payload: { event_types: ['order-request.lost'] } }, 422, 'validation_failed');
    expect(fields(body)).toContain('event_types');
    for (const t of ['order-request.ordered', 'sales-order-item.shipped', 'inventory-item.updated', 'type.deleted'])
      expect(body.message).toContain(t);
  });

  it('a valid change together with an invalid one changes nothing', async () => {
    await refused({ payload: { is_enabled: false, name: 'Changed', url: 'ftp://example.org/' } }, 422, 'validation_failed');
    await refused({ payload: { is_enabled: false, event_types: ['nope.*'] } }, 422, 'validation_failed');
  });

  it('wrong types: 422', async () => {
    for (const payload of [
      { is_enabled: 'false' },
      { is_enabled: 0 },
      { is_signed: 'no' },
      { name: 5 },
      { event_types: 'order-request.*' },
      { event_types: [1] },
    ]) {
      await refused({ payload }, 422, 'validation_failed');
    }
  });

  it('a body that is not an object: 422', async () => {
    for (const body of ['[]', '"x"', '1', 'null']) await refused({ body, contentType: 'application/json' }, 422, 'validation_failed');
  });

  it('malformed JSON: 400; not JSON: 415', async () => {
    await refused({ body: '{"is_enabled": fal', contentType: 'application/json' }, 400, 'invalid_json');
    await refused({ body: 'is_enabled=false', contentType: 'text/plain' }, 415, 'unsupported_media_type');
  });

  it('id not a uuid: 422; unknown uuid: 404', async () => {
    await refused({ id: 'abc', payload: { is_enabled: false } }, 422, 'validation_failed');
    await refused({ id: '00000000-0000-4000-8000-000000000000', payload: { is_enabled: false } }, 404, 'not_found');
  });

  itRequiresToken((opts, status, code) => refused({ ...opts, payload: { is_enabled: false } }, status, code));

  it('the webhook is still as created after all of that', async () => {
    const res = await h.call(h.a.admin.token, { method: 'GET', url: `/webhooks/${hook.id}` });
    expect(res.json()).toEqual(hook);
  });
});
