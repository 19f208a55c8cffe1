// The requests of the amount endpoints (docs/hazard-reports.md "Amounts"), shared by their happy, errors and
// security files.
import type { Harness } from '../../helpers/harness.js';

export const amountUrl = (id: string) => `/inventory-items/${id}/amount`;
export const amountsUrl = (ids: string[]) => `/inventory-item-amounts?${ids.map((id) => `item_id=${encodeURIComponent(id)}`).join('&')}`;

export function amountRequests(h: Harness) {
  return {
    getAmount: (token: string, id: string) => h.call(token, { method: 'GET', url: amountUrl(id) }),
    getAmounts: (token: string, ids: string[]) => h.call(token, { method: 'GET', url: amountsUrl(ids) }),
  };
}
