import { type CloudEvent, HTTP } from 'cloudevents';
import { describe, expect, it } from 'vitest';
import { contentTypeOf, encodeDelivery, formatOf } from './formats.js';

const ITEM_ID = '01936f3e-0000-7000-8000-000000000001';
const envelope = (data: Record<string, unknown>) =>
  JSON.stringify({
    specversion: '1.0',
    id: '01936f3e-0000-7000-8000-00000000000e',
    source: 'https://labstock.test',
    type: 'com.labstock.inventory-item.expiring',
    datacontenttype: 'application/json',
    time: '2026-11-27T08:00:00.000Z',
    data,
  });

const toEvent = (encoded: { contentType: string; body: string }) =>
  HTTP.toEvent({ headers: { 'content-type': encoded.contentType }, body: encoded.body }) as CloudEvent<Record<string, unknown>>;

describe('encodeDelivery', () => {
  const payload = envelope({ inventory_item: { name: 'Ethanol', id: ITEM_ID }, alert: { reason: 'expiring' } });

  it('json: the stored payload byte for byte, as application/json', () => {
    expect(encodeDelivery(payload, 'json')).toEqual({ contentType: 'application/json', body: payload });
  });

  it("cloudevents: structured mode with subject, the first resource's id; the cloudevents SDK accepts it", () => {
    const encoded = encodeDelivery(payload, 'cloudevents');
    expect(encoded.contentType).toBe('application/cloudevents+json');
    expect(Object.keys(JSON.parse(encoded.body))).toEqual([
      'specversion',
      'id',
      'source',
      'type',
      'subject',
      'datacontenttype',
      'time',
      'data',
    ]);
    const event = toEvent(encoded);
    expect(event.subject).toBe(ITEM_ID);
    expect(event.type).toBe('com.labstock.inventory-item.expiring');
    expect(event.data).toEqual(JSON.parse(payload).data);
    // Everything else is the stored event unchanged.
    const { subject, ...rest } = JSON.parse(encoded.body);
    expect(subject).toBe(ITEM_ID);
    expect(rest).toEqual(JSON.parse(payload));
  });

  it('cloudevents without a resource id: no subject, the payload as stored', () => {
    for (const data of [{ thing: { name: 'no id' } }, { thing: null }, { thing: { id: 42 } }, {}]) {
      const stored = envelope(data);
      const encoded = encodeDelivery(stored, 'cloudevents');
      expect(encoded.body).toBe(stored);
      expect(toEvent(encoded).subject).toBeUndefined();
    }
  });
});

describe('formatOf / contentTypeOf', () => {
  it('map the stored content type and the format both ways; anything unknown is json', () => {
    expect(formatOf(contentTypeOf('cloudevents'))).toBe('cloudevents');
    expect(formatOf(contentTypeOf('json'))).toBe('json');
    for (const other of [null, undefined, '', 'text/plain', 'application/cloudevents-batch+json']) expect(formatOf(other)).toBe('json');
  });
});
