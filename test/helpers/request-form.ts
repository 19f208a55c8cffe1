import type { Page } from 'playwright-core';

// The new order request page filled as a member does it (lab, type, item, vendor, catalog number, price, currency),
// shared by the journeys that then vary the quantity or the clicks (order-and-receive, exactly-once,
// numbers-as-typed). The quantity is filled only when given.
export async function fillNewRequest(
  page: Page,
  fields: { item: string; catalog: string; unitPrice: string; quantity?: string; lab?: string; type?: string },
): Promise<void> {
  await page.getByRole('combobox', { name: 'Lab' }).click();
  await page.getByRole('option', { name: fields.lab ?? 'Migrated lab A' }).click();
  await page.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: fields.type ?? 'Antibody' }).click();
  await page.getByRole('textbox', { name: 'Item' }).fill(fields.item);
  await page.getByRole('textbox', { name: 'Vendor' }).fill('Abcam');
  await page.getByRole('textbox', { name: 'Catalog number' }).fill(fields.catalog);
  if (fields.quantity !== undefined) await page.getByRole('textbox', { name: 'Quantity' }).fill(fields.quantity);
  // A whole number is euros, not cents (the API reads bare digits as minor units; web/src/money.ts).
  await page.getByRole('textbox', { name: 'Unit price' }).fill(fields.unitPrice);
  await page.getByRole('textbox', { name: 'Currency' }).fill('EUR');
}
