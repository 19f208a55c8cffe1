import { majorUnits } from './components/ProductSearch';

export { majorUnits };

/**
 * What a person typed ("500", "500.5", "500.00") as the API's Money amount in major units. The API reads digits
 * without a point as minor units (src/shared/money.ts: "500" USD is 5.00), which is not what anyone typing a budget
 * means, so a whole number gets the currency's decimals. Anything else goes as typed and the server judges it.
 */
export function typedMoney(amount: string, currency: string): { amount: string; currency: string } {
  const code = currency.trim().toUpperCase();
  const text = amount.trim();
  let digits = 2;
  try {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    // An unknown currency: the server names it (422).
  }
  return { amount: /^\d+$/.test(text) && digits > 0 ? `${text}.${'0'.repeat(digits)}` : text, currency: code };
}
