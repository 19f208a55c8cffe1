import { describe, expect, it } from 'vitest';
import { ALL_SHORT_TYPES, countWebhooks, h, useHarness } from './_security.js';

// POST /webhooks refusals: each with the standard error body, and not one row written.

useHarness();

async function refused(
  opts: { payload?: unknown; body?: string; contentType?: string; token?: string | null },
  status: number,
  code: string,
) {
  const before = await countWebhooks();
  const headers: Record<string, string> = {};
  if (opts.contentType) headers['content-type'] = opts.contentType;
  const token = opts.token === undefined ? h.a.admin.token : opts.token;
  const res = await h.call(token, {
    method: 'POST',
    url: '/webhooks',
    headers,
    ...(opts.body !== undefined ? { payload: opts.body } : { payload: opts.payload as Record<string, unknown> }),
  });
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(body).toMatchObject({ code, message: expect.any(String), request_id: res.headers['x-request-id'] });
  expect(body.message.length).toBeGreaterThan(0);
  expect(await countWebhooks()).toBe(before);
  return body as { message: string; code: string; errors?: { field: string; message: string }[] };
}

const fields = (body: { errors?: { field: string }[] }) => (body.errors ?? []).map((e) => e.field);

describe('POST /webhooks: lab_id / organization_id', () => {
  it("both given, the lab not that organization's: 422 naming organization_id", async () => {
    const body = await refused(
      { payload: { lab_id: h.a.legacyLab.id, organization_id: h.b.orgId, url: 'https://hooks.example.org/x' } },
      422,
      'validation_failed',
    );
    expect(fields(body)).toEqual(['organization_id']);
  });

  it('both given, an organization id that does not exist: 422', async () => {
    const body = await refused(
      {
        payload: { lab_id: h.a.legacyLab.id, organization_id: '00000000-0000-4000-8000-000000000000', url: 'https://hooks.example.org/x' },
      },
      422,
      'validation_failed',
    );
    expect(fields(body)).toEqual(['organization_id']);
  });

  it("both given, another organization's lab with its own organization: 404, as for the lab alone", async () => {
    await refused(
      { payload: { lab_id: h.b.legacyLab.id, organization_id: h.b.orgId, url: 'https://hooks.example.org/x' } },
      404,
      'not_found',
    );
  });

  it('neither given: 422', async () => {
    const body = await refused({ payload: { url: 'https://hooks.example.org/x' } }, 422, 'validation_failed');
    expect(fields(body).some((f) => f === 'lab_id' || f === 'organization_id')).toBe(true);
  });

  it('not a uuid: 422 naming the field', async () => {
    expect(fields(await refused({ payload: { lab_id: 'lab-1', url: 'https://hooks.example.org/x' } }, 422, 'validation_failed'))).toContain(
      'lab_id',
    );
    expect(
      fields(await refused({ payload: { organization_id: 42, url: 'https://hooks.example.org/x' } }, 422, 'validation_failed')),
    ).toContain('organization_id');
  });

  it('a lab that does not exist: 404', async () => {
    await refused({ payload: { lab_id: '00000000-0000-4000-8000-000000000000', url: 'https://hooks.example.org/x' } }, 404, 'not_found');
  });
});

describe('POST /webhooks: url', () => {
  it('missing: 422 naming url', async () => {
    expect(fields(await refused({ payload: { organization_id: h.a.orgId } }, 422, 'validation_failed'))).toContain('url');
  });

  it.each([
    ['ftp scheme', 'ftp://example.org/hook'],
    ['not a url', 'not a url'],
    ['credentials', 'https://user:secret@example.org/hook'],
    ['user only', 'https://user@example.org/hook'],
    ['empty', ''],
    ['relative', '/hooks/labstock'],
    ['javascript', 'javascript:alert(1)'],
    ['file', 'file:///etc/passwd'],
    ['no host', 'https://'],
    ['number', 12345],
  ])('%s: 422 naming url', async (_label, url) => {
    const body = await refused({ payload: { organization_id: h.a.orgId, url } }, 422, 'validation_failed');
    expect(fields(body)).toContain('url');
  });
});

describe('POST /webhooks: event_types', () => {
  it('an unknown type: 422, and the message lists the valid ones', async () => {
    const body = await refused(
      {
        payload: {
          organization_id: h.a.orgId,
          url: 'https://hooks.example.org/x',
          event_types: ['order-request.ordered', 'order-request.exploded'],
        },
      },
      422,
      'validation_failed',
    );
    expect(fields(body)).toContain('event_types');
    expect(body.message).toContain('order-request.exploded');
    for (const t of ALL_SHORT_TYPES) expect(body.message).toContain(t);
  });

  it.each([
    ['unknown resource.*', ['widget.*']],
    ['another vendor', ['com.othervendor.order-request.ordered']],
    ['bare resource', ['order-request']],
    ['empty string', ['']],
    ['wrong case', ['Order-Request.Ordered']],
    ['wildcard only', ['*']],
  ])('%s: 422', async (_label, eventTypes) => {
    expect(
      fields(
        await refused(
          { payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/x', event_types: eventTypes } },
          422,
          'validation_failed',
        ),
      ),
    ).toContain('event_types');
  });

  it('not an array of strings: 422', async () => {
    for (const eventTypes of ['order-request.ordered', [1, 2], { a: 1 }, null]) {
      const body = await refused(
        { payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/x', event_types: eventTypes } },
        422,
        'validation_failed',
      );
      expect(fields(body).some((f) => f.startsWith('event_types'))).toBe(true);
    }
  });
});

describe('POST /webhooks: other fields', () => {
  it.each(['secret', 'signing_key', 'id', 'content_type', 'organization'])('unknown field %s: 422 naming it', async (field) => {
    const body = await refused(
      { payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/x', [field]: 'x' } },
      422,
      'validation_failed',
    );
    expect(fields(body)).toContain(field);
    expect(body.message).toContain(field);
  });

  it('booleans are not coerced from strings or numbers', async () => {
    for (const [field, value] of [
      ['is_enabled', 'yes'],
      ['is_signed', 1],
      ['is_verified', 'true'],
      ['is_enabled', null],
    ] as const) {
      expect(
        fields(
          await refused(
            { payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/x', [field]: value } },
            422,
            'validation_failed',
          ),
        ),
      ).toContain(field);
    }
  });

  it('name must be a string', async () => {
    expect(
      fields(
        await refused({ payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/x', name: 7 } }, 422, 'validation_failed'),
      ),
    ).toContain('name');
  });

  it('a body that is not an object: 422', async () => {
    for (const payload of [[], 'text', 42])
      await refused({ body: JSON.stringify(payload), contentType: 'application/json' }, 422, 'validation_failed');
  });
});

describe('POST /webhooks: transport', () => {
  it('malformed JSON: 400 invalid_json', async () => {
    await refused({ body: '{"organization_id": ', contentType: 'application/json' }, 400, 'invalid_json');
  });

  it('not JSON: 415', async () => {
    await refused(
      { body: 'url=https://hooks.example.org/x', contentType: 'application/x-www-form-urlencoded' },
      415,
      'unsupported_media_type',
    );
  });

  it('no token, unknown token: 401', async () => {
    await refused({ payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/x' }, token: null }, 401, 'unauthorized');
    await refused(
      { payload: { organization_id: h.a.orgId, url: 'https://hooks.example.org/x' }, token: 'lst_not-a-real-token' },
      401,
      'unauthorized',
    );
  });
});
