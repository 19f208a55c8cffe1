import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/use-harness.js';
import { counts, expectNotFound, expectValidationError, failWritesWhen, MISSING_ID, orderBody } from './_helpers.js';

const h = useHarness();

// Every test in this file is a refused create: nothing may be written, neither a request nor an event nor history.
let before: Awaited<ReturnType<typeof counts>>;
beforeEach(async () => {
  before = await counts(h);
});
afterEach(async () => {
  expect(await counts(h)).toEqual(before);
});

const post = (payload: unknown, token = h.a.admin.token): Promise<LightMyRequestResponse> =>
  h.call(token, { method: 'POST', url: '/order-requests', payload: payload as Record<string, unknown> });

const valid = () => orderBody(h.a.legacyLab) as unknown as Record<string, unknown>;

describe('POST /order-requests: validation', () => {
  it.each(['lab_id', 'type_id', 'name', 'vendor_name', 'catalog_number', 'price', 'quantity'])(
    '422 naming the missing required field %s',
    async (field) => {
      const body = valid();
      delete body[field];
      expectValidationError(await post(body), field);
    },
  );

  it.each(['amount', 'currency'])('422 naming the missing price.%s', async (field) => {
    const body = valid();
    const price = { ...(body.price as Record<string, string>) };
    delete price[field];
    body.price = price;
    expectValidationError(await post(body), `price.${field}`);
  });

  it('422 naming an unknown top-level field', async () => {
    const res = await post({ ...valid(), colour: 'blue' });
    expectValidationError(res, 'colour');
    expect(res.json().errors.find((e: { field: string }) => e.field === 'colour').message).toMatch(/not a known field/);
  });

  it('422 naming an unknown field inside price', async () => {
    expectValidationError(await post({ ...valid(), price: { amount: '1250', currency: 'USD', tax: '1' } }), 'price.tax');
  });

  it.each([
    ['0', 0],
    ['-1', -1],
    ['"2" (a string)', '2'],
    ['1.5', 1.5],
    ['null', null],
    ['too large', 10_000_000_000],
  ])('422 for quantity %s', async (_label, quantity) => {
    expectValidationError(await post({ ...valid(), quantity }), 'quantity');
  });

  it.each(['XXX1', 'usd', 'ABC', '', 'US'])('422 for currency "%s"', async (currency) => {
    expectValidationError(await post({ ...valid(), price: { amount: '1250', currency } }), 'price.currency');
  });

  it.each([
    ['-5', 'USD'],
    ['abc', 'USD'],
    ['12.345', 'USD'],
    ['12,50', 'USD'],
    ['', 'USD'],
    ['1e3', 'USD'],
    [' 12', 'USD'],
    ['12.5', 'JPY'],
    ['1250.', 'JPY'],
    ['1.2345', 'KWD'],
  ])('422 for amount "%s" %s', async (amount, currency) => {
    expectValidationError(await post({ ...valid(), price: { amount, currency } }), 'price.amount');
  });

  it('422 for a numeric amount (must be a string)', async () => {
    expectValidationError(await post({ ...valid(), price: { amount: 1250, currency: 'USD' } }), 'price.amount');
  });

  it.each(['2026-02-30', '2026-13-01', '31.12.2026', '2026-1-5', 'tomorrow'])('422 for required_before "%s"', async (required_before) => {
    expectValidationError(await post({ ...valid(), required_before }), 'required_before');
  });

  it.each(['name', 'vendor_name', 'catalog_number'])('422 for an empty or blank %s', async (field) => {
    expectValidationError(await post({ ...valid(), [field]: '' }), field);
    expectValidationError(await post({ ...valid(), [field]: '   ' }), field);
  });

  it.each(['lab_id', 'type_id', 'vendor_product_id'])('422 for a %s that is not a uuid', async (field) => {
    expectValidationError(await post({ ...valid(), [field]: 'not-a-uuid' }), field);
  });

  it('422 for notes that are not a string', async () => {
    expectValidationError(await post({ ...valid(), notes: 42 }), 'notes');
  });
});

describe('POST /order-requests: references', () => {
  it('404 for an unknown vendor_product_id', async () => {
    const res = await post({ ...valid(), vendor_product_id: MISSING_ID });
    expectNotFound(res);
    expect(res.json().message).toMatch(/vendor product/i);
  });

  it('404 for an unknown lab_id', async () => {
    expectNotFound(await post({ ...valid(), lab_id: MISSING_ID }));
  });

  it('404 for an unknown type_id', async () => {
    expectNotFound(await post({ ...valid(), type_id: MISSING_ID }));
  });

  it('404 for a type of another lab of the same organization', async () => {
    expectNotFound(await post({ ...valid(), lab_id: h.a.legacyLab.id, type_id: h.a.migratedLab.typeId }));
    expectNotFound(await post({ ...valid(), lab_id: h.a.migratedLab.id, type_id: h.a.otherLab.typeId }));
  });

  it('404 for a lab the member cannot see, even with its own type', async () => {
    expectNotFound(await post({ ...valid(), lab_id: h.a.otherLab.id, type_id: h.a.otherLab.typeId }, h.a.member.token));
  });
});

describe('POST /order-requests: malformed requests', () => {
  it('400 for malformed JSON', async () => {
    const res = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/order-requests',
      headers: { 'content-type': 'application/json' },
      payload: '{"lab_id": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_json' });
    expect(typeof res.json().message).toBe('string');
  });

  it.each(['application/xml', 'application/x-www-form-urlencoded', 'text/plain'])('415 for a %s body (not JSON)', async (contentType) => {
    const res = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/order-requests',
      headers: { 'content-type': contentType },
      payload: 'lab_id=x',
    });
    expect(res.statusCode, res.body).toBe(415);
    expect(res.json()).toMatchObject({ code: 'unsupported_media_type' });
  });

  it('422 for a JSON array body', async () => {
    const res = await h.call(h.a.admin.token, {
      method: 'POST',
      url: '/order-requests',
      headers: { 'content-type': 'application/json' },
      payload: '[]',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('validation_failed');
  });

  it('error bodies carry message, code and request_id', async () => {
    const res = await post({ ...valid(), quantity: 0 });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.request_id).toBe(res.headers['x-request-id']);
    expect(Object.keys(body).sort()).toEqual(['code', 'errors', 'message', 'request_id']);
  });
});

describe('POST /order-requests: the created event is in the same transaction', () => {
  it('when the event cannot be written, the request is not created either (500, nothing stored)', async () => {
    await failWritesWhen(
      h,
      'test_fail_created_event',
      'events',
      'INSERT',
      "NEW.type = 'com.labstock.order-request.created' AND NEW.payload LIKE '%Explodo%'",
    );
    const res = await post({ ...valid(), vendor_name: 'Explodo' });
    expect(res.statusCode).toBe(500);
    expect(res.json().code).toBe('internal_error');
    expect(res.body).not.toContain('injected failure');
    const rows = await h.deps.db.selectFrom('order_requests').select('id').where('vendor_name', '=', 'Explodo').execute();
    expect(rows).toEqual([]);
  });
});
