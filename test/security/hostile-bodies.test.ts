import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../helpers/harness.js';

// Issue 9, items 6, 10 and the Content-Encoding part of 11: bodies and text an attacker controls. Each case is
// refused with a 4xx in our error shape, and the database is left exactly as it was (on both databases).

let h: Harness;
let webhookId: string;
let deliveryId: string;

beforeAll(async () => {
  // No worker: deliveries stay queued, which is all these tests look at.
  h = await startHarness({ WEBHOOK_ALLOWED_CIDRS: '127.0.0.1/32' });
  const hook = await h.call(h.a.admin.token, {
    method: 'POST',
    url: '/webhooks',
    payload: { organization_id: h.a.orgId, url: 'http://127.0.0.1:9/hook' },
  });
  expect(hook.statusCode, hook.body).toBe(201);
  webhookId = hook.json().id;
  const pinged = await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${webhookId}/ping` });
  expect(pinged.statusCode, pinged.body).toBe(202);
  deliveryId = pinged.json().id;
});
afterAll(async () => {
  await h?.close();
});

/** Everything a refused request could have changed, to compare before and after. */
async function snapshot(): Promise<unknown> {
  const db = h.deps.db;
  const count = async (
    table: 'events' | 'webhook_deliveries' | 'types' | 'idempotency_keys' | 'inventory_item_instances' | 'order_requests',
  ) =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    events: await count('events'),
    deliveries: await count('webhook_deliveries'),
    types: await count('types'),
    keys: await count('idempotency_keys'),
    instances: await count('inventory_item_instances'),
    orders: await count('order_requests'),
    webhook: await db
      .selectFrom('webhooks')
      .select(['signing_key', 'previous_signing_key', 'updated_at'])
      .where('id', '=', webhookId)
      .executeTakeFirstOrThrow(),
    archived: await db
      .selectFrom('inventory_item_instances')
      .select('archived_at')
      .where('id', '=', h.a.migratedLab.instanceIds[0]!)
      .executeTakeFirstOrThrow(),
  };
}

/** The POST operations that take no body: each once with a real resource. */
// Archiving an instance takes an optional `{reason}` now (docs/api.md), so it is no longer among these.
const noBodyPosts = () => [
  `/webhooks/${webhookId}/ping`,
  `/webhooks/${webhookId}/rotate-secret`,
  `/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`,
];

const json = { 'content-type': 'application/json' };

function expectRefused(res: { statusCode: number; json(): any; body: string }, status: number, code: string): void {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json();
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe('string');
  expect(typeof body.request_id).toBe('string');
}

describe('deeply nested JSON', () => {
  const deep = '['.repeat(5000) + ']'.repeat(5000); // 10 kB
  const deepObject = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;

  it('is 422 on every POST that takes no body, with an Idempotency-Key, and changes nothing', async () => {
    const before = await snapshot();
    let n = 0;
    for (const url of noBodyPosts()) {
      for (const payload of [deep, deepObject]) {
        const res = await h.call(h.a.admin.token, { method: 'POST', url, payload, headers: { ...json, 'idempotency-key': `deep-${n++}` } });
        expectRefused(res, 422, 'validation_failed');
        expect(res.json().errors).toEqual([{ field: 'body', message: 'must not nest arrays and objects more than 32 levels deep' }]);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('is 422 on operations with a body too, with or without a key', async () => {
    const before = await snapshot();
    for (const [url, key] of [
      ['/types', 'deep-types'],
      ['/order-requests', undefined],
      ['/webhooks', 'deep-hooks'],
    ] as const) {
      const res = await h.call(h.a.admin.token, {
        method: 'POST',
        url,
        payload: deep,
        headers: { ...json, ...(key ? { 'idempotency-key': key } : {}) },
      });
      expectRefused(res, 422, 'validation_failed');
    }
    expect(await snapshot()).toEqual(before);
  });

  it('32 levels are still parsed (and then validated as usual)', async () => {
    const res = await h.call(h.a.admin.token, { method: 'POST', url: '/types', payload: '['.repeat(32) + ']'.repeat(32), headers: json });
    expectRefused(res, 422, 'validation_failed');
    expect(res.json().errors[0].message).not.toMatch(/levels deep/);
  });
});

describe('a body sent to an operation that takes none', () => {
  it('is 422 naming the body, and changes nothing', async () => {
    const before = await snapshot();
    for (const url of noBodyPosts()) {
      for (const payload of ['{"name":"x"}', '[]', '"text"', 'null', '0', '{"a":{}}']) {
        const res = await h.call(h.a.admin.token, {
          method: 'POST',
          url,
          payload,
          headers: { ...json, 'idempotency-key': `body-${payload}-${url.length}` },
        });
        expectRefused(res, 422, 'validation_failed');
        expect(res.json().errors).toEqual([{ field: 'body', message: 'this operation takes no request body; send none (or {})' }]);
      }
    }
    const del = await h.call(h.a.admin.token, {
      method: 'DELETE',
      url: `/webhooks/${webhookId}`,
      payload: '{"force":true}',
      headers: json,
    });
    expectRefused(del, 422, 'validation_failed');
    expect(await snapshot()).toEqual(before);
  });

  it('no body, or {}, is still accepted', async () => {
    const none = await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${webhookId}/ping` });
    expect(none.statusCode, none.body).toBe(202);
    const empty = await h.call(h.a.admin.token, { method: 'POST', url: `/webhooks/${webhookId}/ping`, payload: '{}', headers: json });
    expect(empty.statusCode, empty.body).toBe(202);
  });

  it('an unknown route with a body is still 404', async () => {
    const res = await h.call(h.a.admin.token, { method: 'POST', url: '/no-such-route', payload: '{"a":1}', headers: json });
    expect(res.statusCode).toBe(404);
  });
});

describe('text the databases would store differently', () => {
  const typeBody = (name: string) => `{"lab_id":"${h.a.legacyLab.id}","name":"${name}"}`;

  it('a lone surrogate (\\ud800, \\udc00) in a body value or key is 422 naming the field; nothing is stored', async () => {
    const before = await snapshot();
    for (const name of ['a\\ud800b', '\\udc00', 'x\\ud83d']) {
      const res = await h.call(h.a.admin.token, {
        method: 'POST',
        url: '/types',
        payload: typeBody(name),
        headers: { ...json, 'idempotency-key': `sur-${name}` },
      });
      expectRefused(res, 422, 'validation_failed');
      expect(res.json().errors).toEqual([{ field: 'name', message: 'must not contain lone UTF-16 surrogates (it is not Unicode text)' }]);
    }
    const key = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/types',
      payload: `{"lab_id":"${h.a.legacyLab.id}","name":"n","\\ud800":1}`,
      headers: json,
    });
    expectRefused(key, 422, 'validation_failed');
    const nested = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/order-requests',
      headers: json,
      payload: `{"lab_id":"${h.a.legacyLab.id}","type_id":"${h.a.legacyLab.typeId}","name":"Tips","vendor_name":"V","catalog_number":"C","price":{"amount":"1","currency":"\\udfff"},"quantity":1}`,
    });
    expectRefused(nested, 422, 'validation_failed');
    expect(nested.json().errors[0].field).toBe('price.currency');
    expect(await snapshot()).toEqual(before);
  });

  it('a pair of surrogates (an emoji) is fine, and reads back exactly as answered', async () => {
    const res = await h.call(h.a.admin.token, { method: 'POST', url: '/types', payload: typeBody('Tubes \\ud83e\\uddea'), headers: json });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().name).toBe('Tubes 🧪');
    const back = await h.call(h.a.admin.token, {
      method: 'GET',
      url: `/types?lab_id=${h.a.legacyLab.id}&name=${encodeURIComponent('Tubes 🧪')}`,
    });
    expect(back.json().map((t: { name: string }) => t.name)).toEqual(['Tubes 🧪']);
  });

  it('invalid UTF-8 in a JSON body (a stray byte, an overlong form, an encoded surrogate) is 422; nothing is stored', async () => {
    const before = await snapshot();
    for (const bad of [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
      const payload = Buffer.concat([Buffer.from(`{"lab_id":"${h.a.legacyLab.id}","name":"a`), Buffer.from(bad), Buffer.from('b"}')]);
      const res = await h.call(h.a.admin.token, {
        method: 'POST',
        url: '/types',
        payload,
        headers: { ...json, 'idempotency-key': `utf8-${bad.join('-')}` },
      });
      expectRefused(res, 422, 'validation_failed');
      expect(res.json().errors).toEqual([{ field: 'body', message: 'is not valid UTF-8' }]);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('percent-escapes in the query string that are not UTF-8 are 422 naming the parameter; nothing is stored', async () => {
    const before = await snapshot();
    for (const q of ['name=%FF', 'name=%ED%A0%80', 'name=a%C0%AFb', 'name=ok&x=%E2%82']) {
      const res = await h.call(h.a.admin.token, { method: 'GET', url: `/types?lab_id=${h.a.legacyLab.id}&${q}` });
      expectRefused(res, 422, 'validation_failed');
      expect(res.json().errors[0].field).toBe(q.startsWith('name=ok') ? 'x' : 'name');
    }
    const badName = await h.call(h.a.admin.token, { method: 'GET', url: '/types?%FF=1' });
    expectRefused(badName, 422, 'validation_failed');
    expect(badName.json().errors[0].field).toBe('query');
    const write = await h.call(h.a.admin.token, { method: 'POST', url: '/types?note=%FF', payload: typeBody('Query'), headers: json });
    expectRefused(write, 422, 'validation_failed');
    expect(await snapshot()).toEqual(before);
    // Valid escapes and a lone % (not an escape) keep working.
    const ok = await h.call(h.a.admin.token, { method: 'GET', url: `/types?lab_id=${h.a.legacyLab.id}&name=R%C3%A9agent%` });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('invalid UTF-8 in a path parameter is refused before any handler (400 invalid_url); nothing is stored', async () => {
    const before = await snapshot();
    const item = h.a.migratedLab.itemId;
    for (const url of [`/inventory-items/%FF/adjustments`, `/inventory-items/${item}/instances/%ED%A0%80/archive`]) {
      const res = await h.call(h.a.admin.token, { method: 'POST', url, payload: '{"delta":"1"}', headers: json });
      expectRefused(res, 400, 'invalid_url');
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe('Content-Encoding', () => {
  const body = () => JSON.stringify({ lab_id: h.a.legacyLab.id, name: 'Compressed' });

  it('gzip, deflate, br or anything but identity is 415 in our error shape; nothing is stored', async () => {
    const before = await snapshot();
    const gz = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/types',
      payload: gzipSync(body()),
      headers: { ...json, 'content-encoding': 'gzip' },
    });
    expectRefused(gz, 415, 'unsupported_media_type');
    expect(gz.json().message).toMatch(/Content-Encoding gzip/);
    // Declared but not actually compressed: parsed as raw JSON before the fix, which created the type.
    for (const encoding of ['gzip', 'deflate', 'br', 'x-custom', 'identity, gzip']) {
      const res = await h.call(h.a.admin.token, {
        method: 'POST',
        url: '/types',
        payload: body(),
        headers: { ...json, 'content-encoding': encoding },
      });
      expectRefused(res, 415, 'unsupported_media_type');
    }
    const latin1 = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/types',
      payload: body(),
      headers: { 'content-type': 'application/json; charset=iso-8859-1' },
    });
    expectRefused(latin1, 415, 'unsupported_media_type');
    expect(await snapshot()).toEqual(before);
  });

  it('identity (and charset=utf-8) is accepted', async () => {
    const res = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/types',
      payload: body(),
      headers: { 'content-type': 'application/json; charset=UTF-8', 'content-encoding': 'identity' },
    });
    expect(res.statusCode, res.body).toBe(201);
  });
});
