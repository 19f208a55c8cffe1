import { describe, expect, it } from 'vitest';
import { expandEventTypes, SHORT_EVENT_TYPES } from './types.js';

describe('event catalogue', () => {
  it('has the 17 kinds of the contract', () => {
    expect(SHORT_EVENT_TYPES).toHaveLength(17);
    expect(SHORT_EVENT_TYPES).toContain('order-request.ordered');
    expect(SHORT_EVENT_TYPES).toContain('sales-order-item.shipped');
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
