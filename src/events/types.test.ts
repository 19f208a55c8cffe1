import { describe, expect, it } from 'vitest';
import { ALERT_EVENT_TYPES, CONTRACT_EVENT_TYPES, dataKeysOf, expandEventTypes, SHORT_EVENT_TYPES } from './types.js';

describe('event catalogue', () => {
  it("has the 17 kinds of the contract, then Labstock's two alert kinds and order-request.updated", () => {
    expect(CONTRACT_EVENT_TYPES).toHaveLength(17);
    expect(CONTRACT_EVENT_TYPES).toContain('order-request.ordered');
    expect(CONTRACT_EVENT_TYPES).toContain('sales-order-item.shipped');
    expect(CONTRACT_EVENT_TYPES).not.toContain('inventory-item.expiring');
    expect(SHORT_EVENT_TYPES).toEqual([
      ...CONTRACT_EVENT_TYPES,
      'inventory-item.expiring',
      'inventory-item.below-minimum',
      'order-request.updated',
    ]);
    expect(ALERT_EVENT_TYPES.map(dataKeysOf)).toEqual([
      ['inventory_item', 'alert'],
      ['inventory_item', 'alert'],
    ]);
    expect(dataKeysOf('inventory-item.updated')).toEqual(['inventory_item']);
  });

  it('lets a webhook name the alert kinds, alone or through inventory-item.*', () => {
    expect(expandEventTypes('acme', ['inventory-item.below-minimum']).types).toEqual(['com.acme.inventory-item.below-minimum']);
    expect(expandEventTypes('acme', ['inventory-item.*']).types).toEqual([
      'com.acme.inventory-item.created',
      'com.acme.inventory-item.updated',
      'com.acme.inventory-item.deleted',
      'com.acme.inventory-item.expiring',
      'com.acme.inventory-item.below-minimum',
    ]);
  });

  it('expands full, short and wildcard forms into full type strings in catalogue order', () => {
    const { types, unknown } = expandEventTypes('acme', ['order-request.received', 'com.acme.inventory-item.updated', 'type.*']);
    expect(unknown).toEqual([]);
    expect(types).toEqual([
      'com.acme.inventory-item.updated',
      'com.acme.order-request.received',
      'com.acme.type.created',
      'com.acme.type.deleted',
      'com.acme.type.updated',
    ]);
  });

  it("names what it does not know, including another vendor's prefix", () => {
    const { unknown } = expandEventTypes('acme', ['order-request.shipped', 'com.other.type.created', 'nothing.*']);
    expect(unknown).toEqual(['order-request.shipped', 'com.other.type.created', 'nothing.*']);
  });
});
