import { type Dec, dec } from '../shared/decimal.js';

// Budget periods and sums (docs/ordering.md): calendar periods in UTC, exact decimal arithmetic (src/shared/decimal.ts).

export type SpendPeriod = 'month' | 'quarter' | 'year';

export interface PeriodBounds {
  /** First day, YYYY-MM-DD. */
  start: string;
  /** Last day, YYYY-MM-DD (inclusive). */
  end: string;
  /** The instants [from, until) that belong to the period, as stored date-times compare (RFC 3339 UTC, ms). */
  from: string;
  until: string;
}

const day = (d: Date): string => d.toISOString().slice(0, 10);

/** The period of kind `period` that contains `at` (a date YYYY-MM-DD or a date-time; UTC). */
export function periodOf(at: string, period: SpendPeriod): PeriodBounds {
  const year = Number(at.slice(0, 4));
  const month = Number(at.slice(5, 7)) - 1;
  const firstMonth = period === 'month' ? month : period === 'quarter' ? month - (month % 3) : 0;
  const months = period === 'month' ? 1 : period === 'quarter' ? 3 : 12;
  const first = new Date(Date.UTC(year, firstMonth, 1));
  const next = new Date(Date.UTC(year, firstMonth + months, 1));
  const last = new Date(next.getTime() - 86_400_000);
  return { start: day(first), end: day(last), from: first.toISOString(), until: next.toISOString() };
}

export interface PricedRequest {
  unit_price: string;
  quantity: string;
  currency: string;
}

/** Exact total price per currency of the requests, in major units. */
export function spendByCurrency(rows: readonly PricedRequest[]): Map<string, Dec> {
  const totals = new Map<string, Dec>();
  for (const r of rows) totals.set(r.currency, (totals.get(r.currency) ?? dec(0)).plus(dec(r.unit_price).mul(r.quantity)));
  return totals;
}

/** Over budget only when strictly more is spent than the budget: spending it exactly is within it. */
export const isOverBudget = (spent: Dec, budget: Dec): boolean => spent.greaterThan(budget);
