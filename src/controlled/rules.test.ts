import { describe, expect, it } from 'vitest';
import { balanceAfter, entriesOf } from './rules.js';

// What each history line means for the ledger (docs/controlled-substances.md), worked by hand.

const kinds = (c: Parameters<typeof entriesOf>[0]) => entriesOf(c).map((e) => [e.kind, e.amount, e.change, e.source]);

describe('entriesOf', () => {
  it('a quantity going down is a use, up a receipt, through an order a receipt from receiving, in a count a count', () => {
    expect(kinds({ field: 'instance.quantity', old: '5', new: '3.5' })).toEqual([['use', '1.5', '-1.5', 'app']]);
    expect(kinds({ field: 'quantity', old: '2', new: '10' })).toEqual([['receipt', '8', '8', 'app']]);
    expect(kinds({ field: 'quantity', old: '2', new: '5', orderRequestId: 'o' })).toEqual([['receipt', '3', '3', 'receiving']]);
    expect(kinds({ field: 'instance.quantity', old: '5', new: '4', stocktakeSessionId: 's' })).toEqual([['count', '1', '-1', 'stocktake']]);
    expect(kinds({ field: 'instance.quantity', old: '5', new: '5.0' })).toEqual([]);
  });

  it('a container added is a receipt, archived a disposal of what it held, moved a move of no change', () => {
    expect(kinds({ field: 'instance.added', new: '10', orderRequestId: 'o' })).toEqual([['receipt', '10', '10', 'receiving']]);
    expect(kinds({ field: 'received', new: '2' })).toEqual([['receipt', '2', '2', 'app']]);
    expect(kinds({ field: 'instance.archived', old: '2.25', note: 'expired' })).toEqual([['disposal', '2.25', '-2.25', 'app']]);
    const [move] = entriesOf({ field: 'instance.location_id', old: 'a', new: 'b', instanceId: 'i' });
    expect(move).toMatchObject({ kind: 'move', change: '0', fromLocationId: 'a', toLocationId: 'b', amountOf: 'instance' });
    const [legacy] = entriesOf({ field: 'location', old: 'Safe', new: null });
    expect(legacy).toMatchObject({ kind: 'move', note: 'Location: Safe → none', amountOf: 'balance' });
  });

  it('other fields make no entry', () => {
    for (const field of ['name', 'instance.lot_number', 'instance.expiration_date', 'instance.put_away', 'minimum_quantity'])
      expect(entriesOf({ field, old: '1', new: '2' })).toEqual([]);
  });

  it('balances add exactly', () => {
    expect(balanceAfter('0.3', '-0.1')).toBe('0.2');
    expect(balanceAfter('7', '0')).toBe('7');
  });
});
