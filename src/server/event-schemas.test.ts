import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { ALERT_EVENT_TYPES, dataKeyOf, dataKeysOf, EVENT_RESOURCES, SHORT_EVENT_TYPES, type ShortEventType } from '../events/types.js';
import { Lab, Organization } from '../labs/schemas.js';
import { EVENT_PAYLOADS, eventEnvelopeSchema, eventWebhooks } from './event-schemas.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
// Strict: an unknown keyword or a misspelt format in a published schema is an error here, not silently ignored.
const ajv = addFormats(new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true }));

// docs/product.md §7, written out independently of src/server/event-schemas.ts: the payload schema's title for each resource.
/** The JSON Schema behind a kind's payload as published (named resources written out), for looking at its keywords. */
const payload = (short: ShortEventType): any => (eventEnvelopeSchema('acme', short) as any).properties.data.properties[dataKeyOf(short)];

const EXPECTED_TITLE = (short: string): string => {
  if (short === 'order-request.ordered' || short === 'order-request.updated') return 'OrderRequestWithHistory';
  return (
    {
      'inventory-item': 'InventoryItem',
      'order-request': 'OrderRequest',
      'sales-order': 'SalesOrder',
      'sales-order-item': 'SalesOrderItem',
      shipment: 'Shipment',
      type: 'InventoryType',
    } as Record<string, string>
  )[short.split('.')[0]!]!;
};

describe('event payload schemas', () => {
  it("has exactly one schema for every kind in EVENT_RESOURCES (17) Labstock's two alert kinds and order-request.updated, and nothing else", () => {
    const contract = Object.entries(EVENT_RESOURCES).flatMap(([resource, def]) => def.kinds.map((k) => `${resource}.${k}`));
    expect(contract).toHaveLength(17);
    const kinds = [...contract, ...ALERT_EVENT_TYPES, 'order-request.updated'];
    expect(Object.keys(EVENT_PAYLOADS).sort()).toEqual([...kinds].sort());
    for (const kind of kinds) {
      expect(payload(kind as ShortEventType).type, kind).toBe('object');
      expect(EVENT_PAYLOADS[kind as ShortEventType].when.length, kind).toBeGreaterThan(10);
    }
  });

  it('maps each kind to the resource docs/product.md §7 names (ordered carries the request with its history)', () => {
    for (const short of SHORT_EVENT_TYPES) expect(payload(short).title, short).toBe(EXPECTED_TITLE(short));
    const ordered = payload('order-request.ordered');
    expect(Object.keys(ordered.properties)).toEqual(expect.arrayContaining(['events', 'updated_by']));
    expect(payload('sales-order-item.shipped').properties).toHaveProperty('request');
    expect(payload('type.created').properties.lab.properties).toHaveProperty('uses_instances');
    expect(payload('inventory-item.updated').properties).toHaveProperty('instances');
  });

  it('publishes the alert kinds with the item and, beside it, the alert that caused them', () => {
    for (const short of ALERT_EVENT_TYPES) {
      const data = (eventEnvelopeSchema('acme', short) as any).properties.data;
      expect(data.required).toEqual(['inventory_item', 'alert']);
      expect(data.properties.inventory_item.title).toBe('InventoryItem');
      expect(data.properties.alert.title).toBe('InventoryItemAlert');
      expect(Object.keys(data.properties.alert.properties)).toEqual(
        expect.arrayContaining(['cause', 'fired_at', 'expiration_date', 'instance_ids', 'minimum_quantity', 'quantity']),
      );
    }
  });
});

describe('event envelope schemas', () => {
  const sample = (short: ShortEventType, data: Record<string, unknown>) => ({
    specversion: '1.0',
    id: '0190a6f2-1111-7222-8333-444455556666',
    source: 'https://labstock.test',
    type: `com.acme.${short}`,
    datacontenttype: 'application/json',
    time: '2026-01-02T03:04:05.678Z',
    data,
  });
  const typePayload = {
    id: '0190a6f2-1111-7222-8333-444455556667',
    name: 'Reagent',
    lab: {
      id: '0190a6f2-1111-7222-8333-444455556668',
      name: 'Lab',
      organization: { id: '0190a6f2-1111-7222-8333-444455556669', name: 'Org' },
      uses_instances: true,
    },
  };

  it('compiles under strict Ajv 2020 for every kind', () => {
    for (const short of SHORT_EVENT_TYPES) expect(() => ajv.compile(eventEnvelopeSchema('acme', short)), short).not.toThrow();
  });

  it('accepts a well-formed event and refuses the wrong type, vendor, extra or missing data key, and extra envelope fields', () => {
    const validate = ajv.compile(eventEnvelopeSchema('acme', 'type.created'));
    expect(validate(sample('type.created', { type: typePayload })), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...sample('type.created', { type: typePayload }), type: 'com.acme.type.updated' })).toBe(false);
    expect(validate({ ...sample('type.created', { type: typePayload }), type: 'com.other.type.created' })).toBe(false);
    expect(validate(sample('type.created', { type: typePayload, inventory_item: {} }))).toBe(false);
    expect(validate(sample('type.created', {}))).toBe(false);
    const { uses_instances: _dropped, ...labWithoutFlag } = typePayload.lab;
    expect(validate(sample('type.created', { type: { ...typePayload, lab: labWithoutFlag } }))).toBe(false);
    expect(validate(sample('type.created', { type: { id: typePayload.id, name: 'x' } }))).toBe(false);
    expect(validate({ ...sample('type.created', { type: typePayload }), extra: 1 })).toBe(false);
    expect(validate({ ...sample('type.created', { type: typePayload }), specversion: '0.3' })).toBe(false);
    expect(validate({ ...sample('type.created', { type: typePayload }), time: 'yesterday' })).toBe(false);
  });

  it('publishes one post operation per kind, keyed by short type, with the full type as const and the signing headers', () => {
    const hooks = eventWebhooks('acme') as Record<string, any>;
    expect(Object.keys(hooks).sort()).toEqual([...SHORT_EVENT_TYPES].sort());
    for (const short of SHORT_EVENT_TYPES) {
      const op = hooks[short].post;
      const schema = op.requestBody.content['application/json'].schema;
      expect(schema.properties.type.const).toBe(`com.acme.${short}`);
      expect(Object.keys(schema.properties.data.properties)).toEqual(schema.properties.data.required);
      expect(schema.properties.data.required).toEqual(dataKeysOf(short));
      expect(op.parameters.map((p: any) => `${p.in}:${p.name}`)).toEqual([
        'header:webhook-id',
        'header:webhook-timestamp',
        'header:webhook-signature',
        'header:Signature',
      ]);
      expect(Object.keys(op.responses)).toContain('2XX');
    }
  });

  it('does not share objects with the schemas that serialize API responses', () => {
    const schema = eventEnvelopeSchema('acme', 'type.created') as any;
    const published = schema.properties.data.properties.type;
    expect(published).not.toBe(EVENT_PAYLOADS['type.created'].schema);
    published.properties.lab.properties.name.type = 'integer';
    expect((eventEnvelopeSchema('acme', 'type.created') as any).properties.data.properties.type.properties.lab.properties.name.type).toBe(
      'string',
    );
  });

  it("writes the named resources out: a kind's schema stands alone, with no $ref or $id left", () => {
    for (const short of SHORT_EVENT_TYPES) {
      const text = JSON.stringify(eventEnvelopeSchema('acme', short));
      expect(text, short).not.toContain('"$ref"');
      expect(text, short).not.toContain('"$id"');
    }
    const { $id: _id, ...type } = JSON.parse(JSON.stringify(EVENT_PAYLOADS['type.created'].schema));
    const { $id: _lab, ...lab } = JSON.parse(JSON.stringify(Lab));
    const { $id: _org, ...organization } = JSON.parse(JSON.stringify(Organization));
    expect(payload('type.created')).toEqual({
      ...type,
      properties: { ...type.properties, lab: { ...lab, properties: { ...lab.properties, organization } } },
    });
  });
});
