import { describe, expect, it } from 'vitest';
import { TRANSITIONS } from '../../src/order-requests/rules.js';
import { ACTION, NEXT, STATUSES } from '../../web/src/orders.js';

// The web application shows a button for each move the server allows (web/src/orders.ts). It keeps its own copy of
// the table, since the browser bundle must not import server code; this test fails the moment the copies differ.
describe("the web application's transition table", () => {
  it('is the server’s, status by status', () => {
    expect(Object.keys(NEXT).sort()).toEqual(Object.keys(TRANSITIONS).sort());
    for (const status of STATUSES) expect([...NEXT[status]].sort(), status).toEqual([...TRANSITIONS[status]].sort());
  });

  it('names a button for every status a move can reach', () => {
    for (const to of new Set(Object.values(TRANSITIONS).flat())) expect(ACTION[to], to).toMatch(/\w/);
  });
});
