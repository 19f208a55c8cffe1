import { describe, expect, it } from 'vitest';
import { useHarness } from '../helpers/use-harness.js';

// Issue 22: a key that appears twice in one JSON object was accepted and the last one won, so a body could say
// two things (a proxy or a log reading the first, the API the second). It is 422 validation_failed naming the key
// (src/server/json-body.ts), at any depth and however the key is escaped, and nothing is created.

const h = useHarness();

const json = { 'content-type': 'application/json' };
const post = (url: string, payload: string, extra: Record<string, string> = {}) =>
  h.call(h.a.admin.token, { method: 'POST', url, payload, headers: { ...json, ...extra } });
const countTypes = async () =>
  Number(
    (
      await h.deps.db
        .selectFrom('types')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const orderBody = (price: string) =>
  `{"lab_id":"${h.a.legacyLab.id}","type_id":"${h.a.legacyLab.typeId}","name":"Tips","vendor_name":"V","catalog_number":"C","price":${price},"quantity":1}`;

describe('duplicate keys in a JSON body', () => {
  it('a top-level key twice: 422 naming it, with or without an Idempotency-Key, and nothing is created', async () => {
    const before = await countTypes();
    for (const [payload, key] of [
      [`{"lab_id":"${h.a.legacyLab.id}","name":"First","name":"Second"}`, undefined],
      [`{"name":"First","lab_id":"${h.a.legacyLab.id}","name":"Second"}`, 'dup-1'],
      // The same key once escaped: JSON.parse makes them one property.
      [`{"lab_id":"${h.a.legacyLab.id}","name":"First","n\\u0061me":"Second"}`, undefined],
    ] as const) {
      const res = await post('/types', payload, key ? { 'idempotency-key': key } : {});
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({
        code: 'validation_failed',
        errors: [{ field: 'name', message: 'appears more than once in the same object' }],
      });
    }
    const lab = await post('/types', `{"lab_id":"${h.a.legacyLab.id}","lab_id":"${h.a.migratedLab.id}","name":"Third"}`);
    expect(lab.statusCode, lab.body).toBe(422);
    expect(lab.json().errors).toEqual([{ field: 'lab_id', message: 'appears more than once in the same object' }]);
    expect(await countTypes()).toBe(before);
  });

  it('nested: the path of the repeated key is named', async () => {
    const res = await post('/order-requests', orderBody('{"amount":"1","currency":"USD","amount":"1000"}'));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors).toEqual([{ field: 'price.amount', message: 'appears more than once in the same object' }]);
    const deep = await post('/types', `{"lab_id":"${h.a.legacyLab.id}","name":"x","extra":[1,{"a":[{"b":1,"b":2}]}]}`);
    expect(deep.statusCode, deep.body).toBe(422);
    expect(deep.json().errors).toEqual([{ field: 'extra[1].a[0].b', message: 'appears more than once in the same object' }]);
  });

  it('the same key in different objects, keys inside strings, and escaped quotes are fine', async () => {
    const res = await post(
      '/order-requests',
      orderBody('{"amount":"1","currency":"USD"}').replace('"name":"Tips"', '"name":"a \\"name\\": b"'),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().item_name).toBe('a "name": b');
    // Different objects with the same keys (the validator then refuses the unknown field, as always).
    const arrays = await post('/types', `{"lab_id":"${h.a.legacyLab.id}","name":"y","extra":[{"a":1},{"a":1},{"b":{"a":1}}]}`);
    expect(arrays.statusCode, arrays.body).toBe(422);
    expect(arrays.json().errors).toEqual([{ field: 'extra', message: 'is not a known field' }]);
  });
});
